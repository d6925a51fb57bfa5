import assert from "node:assert/strict";
import { ParamsError, parseSkillCall } from "./skills.ts";

const msg = (parts: unknown[]) => ({ message: { messageId: "m1", role: "user", parts } });

Deno.test("parseSkillCall() reads a text message as a search in both wire forms", () => {
  assert.deepEqual(parseSkillCall(msg([{ kind: "text", text: " dams " }])), {
    skill: "search_articles",
    query: "dams",
    limit: 10,
  });
  assert.deepEqual(parseSkillCall(msg([{ text: "dams" }])).skill, "search_articles");
});

Deno.test("parseSkillCall() reads get_article with its prompt from the data part or the text", () => {
  assert.deepEqual(
    parseSkillCall(
      msg([{ data: { skill: "get_article", url_or_id: "a1", last_user_prompt: "p" } }]),
    ),
    { skill: "get_article", idOrUrl: "a1", lastUserPrompt: "p" },
  );
  assert.deepEqual(
    parseSkillCall(
      msg([{ kind: "text", text: "why?" }, {
        kind: "data",
        data: { skill: "get_article", url: "https://x/a" },
      }]),
    ),
    { skill: "get_article", idOrUrl: "https://x/a", lastUserPrompt: "why?" },
  );
});

Deno.test("parseSkillCall() names the field that is wrong", () => {
  const cases: [unknown[], RegExp][] = [
    [[{ data: { skill: "search_articles", query: "q", limit: 0 } }], /^limit:/],
    [[{ data: { skill: "search_articles", query: "q\u0001" } }], /^query:/],
    [
      [{ data: { skill: "get_article", url_or_id: "a", last_user_prompt: "x".repeat(8001) } }],
      /^last_user_prompt:/,
    ],
    [[{ data: { skill: "get_article", url_or_id: "a", limit: 3 } }], /^limit: is not an argument/],
    [[{ data: { skill: "x" } }], /^skill:/],
    [[{ data: {} }, { data: {} }], /^message.parts: at most one data part/],
  ];
  for (const [parts, re] of cases) {
    assert.throws(
      () => parseSkillCall(msg(parts)),
      (e: Error) => e instanceof ParamsError && re.test(e.message),
    );
  }
});

Deno.test("parseSkillCall() takes the user role by name or by its ProtoJSON number", () => {
  const parts = [{ text: "dams" }];
  for (const role of ["user", "ROLE_USER", 1]) {
    assert.equal(
      parseSkillCall({ message: { messageId: "m", role, parts } }).skill,
      "search_articles",
    );
  }
  for (const role of ["ROLE_AGENT", 2, 0, "1"]) {
    assert.throws(
      () => parseSkillCall({ message: { messageId: "m", role, parts } }),
      (e) => e instanceof ParamsError && /message\.role/.test(e.message),
    );
  }
});
