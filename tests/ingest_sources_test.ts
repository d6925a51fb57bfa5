/** Source CSV uploads: limits while streaming, parsing edge cases, hostile cells, auth. */
import assert from "node:assert/strict";
import { countUrlsByState } from "../store/sources.ts";
import { MAX_CSV_BYTES, parseSourceCsv } from "../server/domain/catalog/sources.ts";
import { Hono } from "hono";
import type { AppEnv } from "../server/deps.ts";
import { uploadLimit } from "../server/domain/catalog/upload.ts";
import { auth, uploadCsv } from "./fixtures/ingest_helpers.ts";
import { testFolio } from "./helpers.ts";

const enc = new TextEncoder();

Deno.test("parseSourceCsv() reads a header with url and title columns, quoted fields, BOM and CRLF", () => {
  const csv =
    '\uFEFFtitle,URL\r\n"Hello, world",https://a.example/1\r\n"Say ""hi""",https://a.example/2#frag\r\n';
  const parsed = parseSourceCsv(enc.encode(csv));
  assert.deepEqual(parsed.rows, [
    { line: 2, url: "https://a.example/1", title: "Hello, world" },
    { line: 3, url: "https://a.example/2", title: 'Say "hi"' },
  ]);
  assert.deepEqual(parsed.rejected, []);
});

Deno.test("parseSourceCsv() accepts a headerless one-column file with LF or CR line endings", () => {
  for (const eol of ["\n", "\r", "\r\n"]) {
    const parsed = parseSourceCsv(
      enc.encode(["https://a.example/x", "https://a.example/y"].join(eol)),
    );
    assert.deepEqual(parsed.rows.map((r) => [r.line, r.url, r.title]), [
      [1, "https://a.example/x", null],
      [2, "https://a.example/y", null],
    ]);
  }
});

Deno.test("parseSourceCsv() reports invalid, duplicate and formula cells per line and keeps the rest", () => {
  const csv = [
    "url",
    "https://a.example/1",
    "=cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "https://user:pw@a.example/",
    "HTTPS://A.example/1",
    "",
    "https://a.example/\0nul",
    "https://a.example/2",
  ].join("\n");
  const parsed = parseSourceCsv(enc.encode(csv));
  assert.deepEqual(parsed.rows.map((r) => r.url), ["https://a.example/1", "https://a.example/2"]);
  assert.deepEqual(parsed.rejected.map((r) => [r.line, r.reason]), [
    [3, "not an http(s) URL"],
    [4, "not an http(s) URL"],
    [5, "not an http(s) URL"],
    [6, "not an http(s) URL"],
    [7, "credentials in the URL are not allowed"],
    [8, "duplicate of line 2"],
    [10, "contains a NUL byte"],
  ]);
  assert.equal(parsed.rejected[0].url, "=cmd|' /C calc'!A0");
});

Deno.test("a CSV with an unterminated quote is refused with 400 naming the line where it opens", async () => {
  await using folio = await testFolio();
  const csv = `url,title\nhttps://a.example/1,ok\nhttps://a.example/2,"never closed\n${
    "https://a.example/x,y\n".repeat(5000)
  }`;
  const res = await uploadCsv(folio, csv);
  assert.equal(res.status, 400);
  const error = (res.body as { error: { message: string } }).error;
  assert.match(error.message, /^file: line 3: /);
  assert.equal((await countUrlsByState(folio.deps.store.db, "pub_demo")).queued, 0);
});

Deno.test("a CSV over 20 MB is refused with 413 while it streams, before the rest is read", async () => {
  await using folio = await testFolio();
  // 21 MB sent as a stream without Content-Length: the server must stop reading at the limit.
  const line = enc.encode(`https://a.example/${"p".repeat(100)}\n`);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (sent >= 21 * 1024 * 1024) return ctl.close();
      const chunk = new Uint8Array(64 * 1024);
      for (let i = 0; i + line.length <= chunk.length; i += line.length) chunk.set(line, i);
      sent += chunk.length;
      ctl.enqueue(chunk);
    },
  });
  const res = await folio.request("/api/publisher/sources", {
    method: "POST",
    headers: { ...auth(folio), "content-type": "text/csv" },
    body,
  }).catch((e) => e as Error);
  if (res instanceof Response) {
    assert.equal(res.status, 413);
    assert.match((await res.json()).error.message, /exceeds the limit of 20 MB/);
  }
  // Either way nothing was queued and the server is still answering.
  assert.equal((await countUrlsByState(folio.deps.store.db, "pub_demo")).queued, 0);
  const exact = await uploadCsv(folio, new Uint8Array(MAX_CSV_BYTES + 1).fill(0x61));
  assert.equal(exact.status, 413);
  assert.equal(
    exact.body.error && (exact.body.error as { code: string }).code,
    "payload_too_large",
  );
});

Deno.test("a CSV uploaded as multipart/form-data with a file field is accepted", async () => {
  await using folio = await testFolio();
  const form = new FormData();
  form.set(
    "file",
    new File(["url\nhttps://a.example/m1\nhttps://a.example/m2\n"], "../../list.csv"),
  );
  const res = await folio.request("/api/publisher/sources", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.equal(body.accepted, 2);
  assert.equal(body.queued, 2);
  const list = await folio.request("/api/publisher/sources", { headers: auth(folio) });
  const { sources, urls } = await list.json();
  assert.equal(sources[0].originalName, "list.csv");
  assert.equal(urls.queued, 2);
});

Deno.test("a multipart upload without a file field is a 400 naming the field", async () => {
  await using folio = await testFolio();
  const form = new FormData();
  form.set("csv", "https://a.example/");
  const res = await folio.request("/api/publisher/sources", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /^file: /);
});

Deno.test("URLs listed in two different files are queued once", async () => {
  await using folio = await testFolio();
  const a = await uploadCsv(folio, "https://a.example/1\nhttps://a.example/2\n");
  const b = await uploadCsv(folio, "url\nhttps://a.example/2\nhttps://a.example/3\n");
  assert.equal(a.body.queued, 2);
  assert.equal(b.status, 201);
  assert.equal(b.body.accepted, 2);
  assert.equal(b.body.queued, 1);
  assert.equal((await countUrlsByState(folio.deps.store.db, "pub_demo")).queued, 3);
});

Deno.test("UTF-16 and invalid UTF-8 CSVs are refused with 415", async () => {
  await using folio = await testFolio();
  const utf16 = await uploadCsv(folio, new Uint8Array([0xff, 0xfe, 0x75, 0x00]));
  assert.equal(utf16.status, 415);
  const latin1 = await uploadCsv(folio, new Uint8Array([0x75, 0x72, 0x6c, 0x0a, 0xe9, 0x0a]));
  assert.equal(latin1.status, 415);
});

Deno.test("a file whose first row is neither a header nor a URL is a 400", async () => {
  await using folio = await testFolio();
  const res = await uploadCsv(folio, "name,link\nfoo,bar\n");
  assert.equal(res.status, 400);
  assert.match(String((res.body.error as { message: string }).message), /no url column/);
});

Deno.test("source and job routes need a publisher credential and validate the job kind", async () => {
  await using folio = await testFolio();
  for (
    const [method, path] of [
      ["POST", "/api/publisher/sources"],
      ["GET", "/api/publisher/sources"],
      ["POST", "/api/publisher/jobs"],
      ["GET", "/api/publisher/jobs"],
      ["GET", "/api/publisher/jobs/job_x"],
    ]
  ) {
    const res = await folio.request(path, { method, body: method === "POST" ? "x" : undefined });
    assert.equal(res.status, 401, path);
    await res.body?.cancel();
  }
  const bad = await folio.request("/api/publisher/jobs", {
    method: "POST",
    headers: { ...auth(folio), "content-type": "application/json" },
    body: JSON.stringify({ kind: "crawl" }),
  });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error.message, /^kind: /);
  const missing = await folio.request("/api/publisher/jobs/job_nope", { headers: auth(folio) });
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("uploadLimit() stops pulling the body at the first chunk past the limit", async () => {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      pulled += 1024 * 1024;
      ctl.enqueue(new Uint8Array(1024 * 1024));
    },
  });
  const app = new Hono<AppEnv>().post("/", uploadLimit(MAX_CSV_BYTES), (c) => c.text("read"));
  app.onError((err, c) => c.text(err.message, 413));
  const res = await app.request("/", { method: "POST", body });
  assert.equal(res.status, 413);
  assert.match(await res.text(), /exceeds the limit of 20 MB/);
  // The stream is endless: reading stopped one chunk (plus the stream's small read-ahead) past 20 MB.
  assert.ok(pulled <= MAX_CSV_BYTES + 3 * 1024 * 1024, `pulled ${pulled}`);
});

Deno.test("a source upload that is neither CSV nor multipart is refused with 415", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/publisher/sources", {
    method: "POST",
    headers: { ...auth(folio), "content-type": "application/json" },
    body: JSON.stringify({ url: "https://a.example/" }),
  });
  assert.equal(res.status, 415);
  assert.match((await res.json()).error.message, /text\/csv or multipart/);
});
