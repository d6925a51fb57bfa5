import assert from "node:assert/strict";
import { splitMarkdown } from "./book_split.ts";
import { markdownChapters } from "./book_split_bytes.ts";

const PIECES = [
  "# Part one",
  "# Part two #",
  "#  ",
  "# ##",
  "## A section",
  "##\u00a0Non-breaking space",
  "### Deeper",
  "#### Too deep",
  "#no space",
  "```",
  "# inside a fence?",
  "~~~",
  "",
  "",
  "   ",
  "A line with **bold**, _emphasis_ and a [link](https://x.example/(a)).",
  "- a list item",
  "> a quote",
  "Plain words of a paragraph, the “curly” kind — with dashes.",
  "word ".repeat(45),
];

/** A markdown book from a seeded pick of tricky lines and line endings. */
function book(seed: number): string {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const breaks = ["\n", "\r\n", "\r"];
  const lines = Array.from(
    { length: 5 + Math.floor(next() * 40) },
    () => PIECES[Math.floor(next() * PIECES.length)],
  );
  const eol = () => (next() < 0.8 ? "\n" : breaks[Math.floor(next() * 3)]);
  return (next() < 0.1 ? "\uFEFF" : "") + lines.map((l) => l + eol()).join("");
}

async function both(text: string) {
  const whole = splitMarkdown(new TextDecoder().decode(new TextEncoder().encode(text)), "Book");
  const source = await markdownChapters(new TextEncoder().encode(text));
  return { whole, source };
}

Deno.test("markdownChapters() gives splitMarkdown()'s chapters, or null where it falls back", async () => {
  let split = 0;
  for (let seed = 1; seed <= 2000; seed++) {
    const text = book(seed);
    const { whole, source } = await both(text);
    if (!source) continue;
    split++;
    assert.deepEqual(source.titles, whole.map((c) => c.title), JSON.stringify(text));
    assert.deepEqual([...source.chapters()], whole, JSON.stringify(text));
  }
  assert.ok(split > 500, `${split} of 2000 books had chapters`);
});

Deno.test("markdownChapters() splits at the shallowest repeated level and keeps front matter", async () => {
  const preface = "Before the first chapter. ".repeat(12);
  const text =
    `# Title\r\n\r\n${preface}\r\n\r\n## One\r\n\r\nText one.\r\n## Two ##\r\n\r\nText two.\r\n## Empty\r\n`;
  const { whole, source } = await both(text);
  assert.deepEqual(source?.titles, ["Front matter", "One", "Two"]);
  assert.deepEqual([...source!.chapters()], whole);
  assert.equal(await markdownChapters(new TextEncoder().encode("No headings.\n\nAt all.")), null);
});

Deno.test("markdownChapters() refuses bytes that are not UTF-8 before handing out a chapter", async () => {
  const bytes = new TextEncoder().encode("# One\n\ntext\n\n# Two\n\nmore ?\n");
  bytes[bytes.length - 3] = 0xff;
  await assert.rejects(() => markdownChapters(bytes), TypeError);
});
