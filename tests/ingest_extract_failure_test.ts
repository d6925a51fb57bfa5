/**
 * Through the real ingestion path: a page whose extraction crashes the extraction thread fails
 * alone, recorded with its reason under "extraction failed"; the job goes on and the other pages
 * of the same upload are stored (server/domain/catalog/extract_thread.ts).
 */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { createExtractor } from "../server/domain/catalog/extract_thread.ts";
import { startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { USER_AGENT } from "../server/runtime.ts";
import { uploadCsv, urlsIn, waitForJob } from "./fixtures/ingest_helpers.ts";
import { testFolio } from "./helpers.ts";

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>
${
    Array.from({ length: 8 }, (_, i) =>
      `<p>Paragraph ${i} of ${title}, long enough to be the article's own text and kept as such by
the extractor, with a few more words to make sure of it.</p>`).join("\n")
  }</article></body></html>`;

Deno.test("a page that crashes the extraction thread fails alone; the upload's other pages are stored", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  await using site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
    return new Response(page(`Story at ${path}`), { headers: { "content-type": "text/html" } });
  });
  const origin = `http://127.0.0.1:${site.addr.port}`;
  folio.deps.fetcher = createFetcher({ userAgent: USER_AGENT, allowLoopback: true });
  // Every page goes to the thread; the stand-in thread dies on a URL ending in /crash.
  folio.deps.extractor.close();
  folio.deps.extractor = createExtractor({
    workerUrl: new URL("./fixtures/extract_worker_stand_in.ts", import.meta.url),
    inlineMaxChars: 0,
  });
  const worker = startIngestionWorker(folio.deps, { pageTimeoutMs: 30_000, pollMs: 100 });
  try {
    const urls = ["/first", "/crash", "/last"].map((p) => `${origin}${p}`);
    const up = await uploadCsv(folio, ["url", ...urls].join("\n"));
    assert.equal(up.status, 201);
    const job = await waitForJob(folio, up.body.jobId as string);
    assert.equal(job.ingested, 2, JSON.stringify(job));
    assert.equal(job.failed, 1);
    assert.deepEqual(job.reasons, { "extraction failed": 1 });
    const failed = await urlsIn(folio, "failed");
    assert.match(failed.get(urls[1]) ?? "", /^The extraction thread failed on the page/);
    assert.equal(await findArticle(folio.deps.store.db, "pub_demo", urls[1]), null);
    for (const u of [urls[0], urls[2]]) {
      const a = await findArticle(folio.deps.store.db, "pub_demo", u);
      assert.equal(a?.title, `Story at ${new URL(u).pathname}`);
    }
  } finally {
    await worker.stop();
  }
});
