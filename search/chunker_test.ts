import assert from "node:assert/strict";
import { CHUNK_MAX_WORDS, chunkArticle } from "./chunker.ts";

const para = (word: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ") + ".";

Deno.test("chunkArticle() keeps the section heading each passage falls under", () => {
  const body = [
    para("intro", 90),
    "## Methods",
    para("method", 120),
    para("detail", 120),
    "## Results",
    para("result", 60),
  ].join("\n\n");
  const chunks = chunkArticle("a1", body);
  assert.deepEqual(chunks.map((c) => c.section), ["", "Methods", "Methods", "Results"]);
  assert.ok(chunks[0].text.startsWith("intro0"));
  assert.ok(chunks[3].text.startsWith("result0"));
  assert.ok(chunks.every((c) => !c.text.includes("##")));
});

Deno.test("chunkArticle() numbers ids <articleId>#<n> from 0", () => {
  const body = [para("a", 150), para("b", 150), para("c", 150)].join("\n\n");
  const chunks = chunkArticle("art9", body);
  assert.deepEqual(chunks.map((c) => c.id), ["art9#0", "art9#1", "art9#2"]);
  assert.deepEqual(chunks.map((c) => c.n), [0, 1, 2]);
});

Deno.test("chunkArticle() joins short paragraphs and splits an overlong one", () => {
  const short = Array.from({ length: 6 }, (_, i) => para(`s${i}x`, 20)).join("\n\n");
  assert.equal(chunkArticle("a", short).length, 1);
  const long = chunkArticle("b", para("w", 1000));
  assert.ok(long.length >= 5);
  for (const c of long) assert.ok(c.text.split(/\s+/).length <= CHUNK_MAX_WORDS);
  assert.equal(long.map((c) => c.text).join(" ").split(/\s+/).length, 1000);
});

Deno.test("chunkArticle() uses the title as the first section when given, and skips empty bodies", () => {
  assert.equal(chunkArticle("a", "Hello world.", { title: "Greeting" })[0].section, "Greeting");
  assert.deepEqual(chunkArticle("a", "  \n\n "), []);
});
