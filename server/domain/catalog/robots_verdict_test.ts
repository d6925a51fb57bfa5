/** The one robots.txt verdict: never fails open (RFC 9309 section 2.3.1). */
import assert from "node:assert/strict";
import type { RobotsRecord } from "../../../store/robots.ts";
import { robotsVerdictOf } from "./robots_verdict.ts";

const URL_ = "https://news.example/articles/a";
const rec = (status: number, body: string | null = null): RobotsRecord => ({
  origin: "https://news.example",
  body,
  status,
  fetchedAt: 1,
  lastOkAt: null,
});

Deno.test("robotsVerdictOf(): never fetched, unreachable, 5xx and 429 disallow; 3xx and 4xx allow", () => {
  assert.deepEqual(robotsVerdictOf(null, URL_, ["GPTBot"]), {
    allowed: false,
    reason:
      "robots.txt has not been fetched yet; the host is treated as disallowed until it answers",
  });
  for (const status of [0, 500, 503, 429]) {
    assert.equal(robotsVerdictOf(rec(status), URL_, ["GPTBot"]).allowed, false, `${status}`);
  }
  assert.match(
    (robotsVerdictOf(rec(0), URL_) as { reason: string }).reason,
    /^robots\.txt could not be fetched/,
  );
  for (const status of [310, 401, 403, 404, 410]) {
    assert.deepEqual(
      robotsVerdictOf(rec(status), URL_, ["GPTBot"]),
      { allowed: true },
      `${status}`,
    );
  }
});

Deno.test("robotsVerdictOf(): a 200 applies its rules to any of the agent's tokens, or to *", () => {
  const file = rec(
    200,
    "User-agent: GPTBot\nDisallow: /articles/\n\nUser-agent: *\nDisallow: /x\n",
  );
  assert.deepEqual(robotsVerdictOf(file, URL_, ["OAI-SearchBot", "GPTBot"]), {
    allowed: false,
    reason: "robots.txt disallows GPTBot",
  });
  assert.deepEqual(robotsVerdictOf(file, URL_, ["ClaudeBot"]), { allowed: true });
  assert.equal(robotsVerdictOf(file, "https://news.example/x", []).allowed, false);
  assert.deepEqual(robotsVerdictOf(rec(200, ""), URL_, ["GPTBot"]), { allowed: true });
});
