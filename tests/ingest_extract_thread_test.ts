/**
 * Extraction on its own thread (server/domain/catalog/extract_thread.ts): the thread's answer is
 * the inline extraction's, pages are answered in order, and a page that crashes the thread or
 * outlives its deadline fails alone while the pages queued behind it are still extracted.
 */
import assert from "node:assert/strict";
import { extractArticle } from "../server/domain/catalog/extract.ts";
import { createExtractor, ExtractionFailed } from "../server/domain/catalog/extract_thread.ts";

const page = (n: number) =>
  `<!doctype html><html><head><title>Story ${n} - Example News</title></head><body>
<nav><a href="/">Example News</a></nav><article><h1>Story ${n}</h1>
<p class="byline">By Ana Silva</p>
${
    Array.from({ length: 6 }, (_, i) =>
      `<p>Paragraph ${i} of story ${n} says something long enough to be the article's text, with
more words so that Readability keeps it as the page's content and not as furniture.</p>`).join("\n")
  }</article><footer>Example News</footer></body></html>`;
const standIn = new URL("./fixtures/extract_worker_stand_in.ts", import.meta.url);

Deno.test("the thread's extraction equals the inline one, page for page, in order", async () => {
  const extractor = createExtractor({ inlineMaxChars: 0 });
  try {
    const urls = Array.from({ length: 8 }, (_, i) => `https://news.example/story-${i}`);
    const got = await Promise.all(urls.map((u, i) => extractor.extract(page(i), u)));
    assert.deepEqual(got, urls.map((u, i) => extractArticle(page(i), u)));
    assert.deepEqual(got[3].title, "Story 3");
    assert.deepEqual(got[3].author, "Ana Silva");
  } finally {
    extractor.close();
  }
});

Deno.test("a page that crashes the thread fails alone; the next pages start a new thread", async () => {
  const extractor = createExtractor({ workerUrl: standIn, inlineMaxChars: 0 });
  try {
    const before = extractor.extract(page(1), "https://news.example/one");
    const crash = extractor.extract(page(2), "https://news.example/crash");
    const after = extractor.extract(page(3), "https://news.example/three");
    assert.deepEqual((await before).title, "Story 1");
    await assert.rejects(
      crash,
      (e) =>
        e instanceof ExtractionFailed &&
        e.message.startsWith("The extraction thread failed on the page"),
    );
    assert.deepEqual((await after).title, "Story 3");
  } finally {
    extractor.close();
  }
});

Deno.test("a page past its deadline fails with a sentence, and the queue moves on", async () => {
  // The page behind the hang answers at once, so only the hang can reach the deadline.
  const extractor = createExtractor({ workerUrl: standIn, deadlineMs: 3000, inlineMaxChars: 0 });
  try {
    const hang = extractor.extract(page(1), "https://news.example/hang");
    const after = extractor.extract(page(2), "https://news.example/echo");
    after.catch(() => {}); // awaited below, after the hang
    await assert.rejects(
      hang,
      (e) =>
        e instanceof ExtractionFailed && e.message === "Extracting the page took longer than 3 s",
    );
    assert.equal((await after).title, "https://news.example/echo");
  } finally {
    extractor.close();
  }
});

Deno.test("closing fails what is queued and refuses new pages", async () => {
  const extractor = createExtractor({ workerUrl: standIn, inlineMaxChars: 0 });
  const hang = extractor.extract(page(1), "https://news.example/hang");
  const queued = extractor.extract(page(2), "https://news.example/two");
  extractor.close();
  const closedError = (e: unknown) =>
    e instanceof ExtractionFailed && e.message === "The extractor is closed";
  await assert.rejects(hang, closedError);
  await assert.rejects(queued, closedError);
  await assert.rejects(extractor.extract(page(3), "https://news.example/3"), closedError);
});

Deno.test("an idle thread ends, and the next page starts another", async () => {
  const extractor = createExtractor({ idleMs: 50, inlineMaxChars: 0 });
  try {
    assert.deepEqual((await extractor.extract(page(1), "https://news.example/1")).title, "Story 1");
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual((await extractor.extract(page(2), "https://news.example/2")).title, "Story 2");
  } finally {
    extractor.close();
  }
});

Deno.test("a small page is extracted inline, a large one on the thread", async () => {
  // The stand-in crashes on /crash: inline, nothing crashes; on the thread, it does.
  const extractor = createExtractor({ workerUrl: standIn, inlineMaxChars: page(1).length });
  try {
    const small = await extractor.extract(page(1), "https://news.example/crash");
    assert.equal(small.title, "Story 1");
    const large = page(1) + "<!--" + "x".repeat(100) + "-->";
    await assert.rejects(extractor.extract(large, "https://news.example/crash"), ExtractionFailed);
  } finally {
    extractor.close();
  }
});

Deno.test("the event loop keeps turning while a large page is extracted", async () => {
  const extractor = createExtractor();
  try {
    const paragraphs = Array.from(
      { length: 4000 },
      (_, i) => `<p>Paragraph ${i} of a long page, with words enough to be kept.</p>`,
    );
    const big = `<html><body><article><h1>A long page</h1>${
      paragraphs.join("")
    }</article></body></html>`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const x = await extractor.extract(big, "https://news.example/long");
      assert.equal(x.title, "A long page");
    } finally {
      clearInterval(timer);
    }
    // Inline, a 300 KB page holds the loop for its whole extraction and no tick runs.
    assert.ok(ticks >= 2, `only ${ticks} ticks while the page was extracted`);
  } finally {
    extractor.close();
  }
});

Deno.test("a thread that cannot load leaves every page extracted inline", async () => {
  const missing = new URL("./fixtures/no_such_extract_worker.ts", import.meta.url);
  const extractor = createExtractor({ workerUrl: missing, inlineMaxChars: 0 });
  try {
    const got = await Promise.all(
      [1, 2, 3].map((n) => extractor.extract(page(n), `https://news.example/${n}`)),
    );
    assert.deepEqual(got.map((x) => x.title), ["Story 1", "Story 2", "Story 3"]);
  } finally {
    extractor.close();
  }
});
