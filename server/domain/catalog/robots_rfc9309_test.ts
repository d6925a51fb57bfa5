/** robots.txt rules against cases written from RFC 9309 (tests/fixtures/robots_cases.ts). */
import assert from "node:assert/strict";
import { ROBOTS_CASES, STATUS_CASES } from "../../../tests/fixtures/robots_cases.ts";
import { canonicalPath, normaliseRobots, parseRobots, statusRule } from "./robots_rules.ts";

Deno.test("parseRobots() answers every RFC 9309 case", () => {
  const failed = ROBOTS_CASES.filter((k) =>
    parseRobots(k.robots).isAllowed(`https://x.example${k.path}`, k.token) !== k.allowed
  ).map((k) => `§${k.section} ${k.name}`);
  assert.deepEqual(failed, []);
  assert.ok(ROBOTS_CASES.length >= 60);
});

Deno.test("statusRule() reads answer statuses as RFC 9309 section 2.3.1 says", () => {
  for (const k of STATUS_CASES) assert.equal(statusRule(k.status), k.rule, `${k.status}`);
});

Deno.test("normaliseRobots() keeps only user-agent, allow and disallow lines, in one spelling", () => {
  assert.equal(
    normaliseRobots(
      "User-Agent: FolioBot/2.0 (+https://folio.example)\nSitemap: /s.xml\nCrawl-delay: 3\n" +
        "Disallow /a%7eb\nallow: /ü\nNoindex: /x\nuser-agent: * # all\n",
    ),
    "user-agent: foliobot\ndisallow: /a~b\nallow: /%C3%BC\nuser-agent: *\ndisallow:",
  );
});

Deno.test("canonicalPath() gives equivalent paths one spelling, and keeps wildcards apart from literals", () => {
  assert.equal(canonicalPath("/a%3cd/%7E/%41?q=%2F%3a", false), "/a%3Cd/~/A?q=/:");
  assert.equal(canonicalPath("/a%2fb/%zz", false), "/a%2Fb/%25zz");
  assert.equal(canonicalPath("/*.gif$", true), "/*.gif$");
  assert.equal(canonicalPath("/*.gif$", false), "/%2A.gif%24");
  assert.equal(canonicalPath("/x y\"'", false), "/x%20y%22%27");
});

Deno.test("parseRobots() answers for absolute URLs and paths, and an unknown token falls back to *", () => {
  const r = parseRobots("User-agent: *\nDisallow: /private\n");
  assert.equal(r.isAllowed("/private/x"), false);
  assert.equal(r.isAllowed("https://other.example/private/x"), false);
  assert.equal(r.isAllowed("/public"), true);
  assert.equal(r.isAllowed("/private/x", ""), false);
  assert.equal(parseRobots("").isAllowed("/anything"), true);
});
