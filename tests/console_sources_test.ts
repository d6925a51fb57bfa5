/** The console's sources, jobs and books pages over the ingestion API (jobs stay queued: no worker). */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";

function csvForm(csv: string, name = "list.csv"): FormData {
  const form = new FormData();
  form.append("file", new File([csv], name, { type: "text/csv" }));
  return form;
}

Deno.test("an uploaded CSV goes straight to its job page, which can cancel, retry and remove it", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const sources = await visitor.get("/publisher/sources");
  assert.match(textOf(sources.html), /No jobs yet/);
  const csrf = hidden(sources.html);
  const action = /action="(\/publisher\/sources\/upload\?_csrf=[^"]+)"/.exec(sources.html)![1];
  const jobPage = await visitor.postMultipart(
    action.replaceAll("&amp;", "&"),
    csvForm("url\nhttps://a.example/1\nhttps://a.example/2\n"),
  );
  assert.equal(jobPage.status, 200);
  assert.match(jobPage.url, /^\/publisher\/jobs\/job_\w+\?done=uploaded$/);
  const jobId = /\/publisher\/jobs\/(job_\w+)/.exec(jobPage.url)![1];
  const text = textOf(jobPage.html);
  assert.match(text, /Upload received; its job has started/);
  assert.match(text, /0 of 2 done/);
  assert.match(
    jobPage.html,
    /<meta http-equiv="refresh" content="3"\/?>/,
    "a queued job refreshes",
  );

  const cancelled = await visitor.post(`/publisher/jobs/${jobId}/cancel`, {
    _csrf: csrf,
    reason: "Wrong list",
  });
  assert.match(textOf(cancelled.html), /The job was cancelled/);
  assert.match(textOf(cancelled.html), /Wrong list/);
  assert.doesNotMatch(cancelled.html, /http-equiv="refresh"/);
  const again = await visitor.post(`/publisher/jobs/${jobId}/cancel`, { _csrf: csrf });
  assert.equal(again.status, 409, "a finished job cannot be cancelled");
  assert.match(again.html, /role="alert"/);

  const retried = await visitor.post(`/publisher/jobs/${jobId}/retry`, { _csrf: csrf });
  assert.match(retried.url, /^\/publisher\/jobs\/job_\w+\?done=retried$/);
  assert.doesNotMatch(retried.url, new RegExp(jobId), "a retry is a new job");

  const list = await visitor.get("/publisher/sources");
  const sourceId = /href="\/publisher\/sources\/(src_\w+)"/.exec(list.html)![1];
  const upload = await visitor.get(`/publisher/sources/${sourceId}`);
  assert.match(textOf(upload.html), /https:\/\/a\.example\/1/);
  const removedOne = await visitor.post("/publisher/sources/urls/remove", {
    _csrf: csrf,
    back: `/publisher/sources/${sourceId}`,
    urls: "https://a.example/1",
  });
  assert.equal(removedOne.url, `/publisher/sources/${sourceId}?done=removed`);
  assert.doesNotMatch(textOf(removedOne.html), /https:\/\/a\.example\/1\b/);
  const removed = await visitor.post(`/publisher/sources/${sourceId}/remove`, { _csrf: csrf });
  assert.equal(removed.url, "/publisher/sources?done=removed");
  assert.equal((await visitor.get(`/publisher/sources/${sourceId}`)).status, 404);
});

Deno.test("an upload with a forged token, or of the wrong kind, is refused on the sources page; a file of no URLs says so", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const forged = await visitor.postMultipart(
    "/publisher/sources/upload?_csrf=forged",
    csvForm("https://a.example/1\n"),
  );
  assert.equal(forged.status, 403);
  assert.match(forged.html, /role="alert"/);
  const sources = await visitor.get("/publisher/sources");
  assert.match(textOf(sources.html), /No jobs yet/, "nothing was queued");
  const csrf = hidden(sources.html);
  // A file of no URLs is not an error: the page says nothing was queued.
  const empty = await visitor.postMultipart(
    `/publisher/sources/upload?_csrf=${encodeURIComponent(csrf)}`,
    csvForm("not a url\n"),
  );
  assert.equal(empty.url, "/publisher/sources?done=nothing");
  assert.match(textOf(empty.html), /No new URLs in this file/);
});

Deno.test("a book is uploaded, listed with its chapters, and deleted from the console", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const books = await visitor.get("/publisher/books");
  assert.match(textOf(books.html), /No books yet/);
  const csrf = hidden(books.html);
  const form = new FormData();
  const body = Array.from(
    { length: 3 },
    (_, i) => `# Chapter ${i + 1}\n\n${"The harbor wakes before the town does. ".repeat(60)}\n`,
  ).join("\n");
  form.append("file", new File([body], "harbor.md", { type: "text/markdown" }));
  form.append("title", "The Harbor Book");
  form.append("author", "Maya Lindqvist");
  form.append("summarization", "on");
  const book = await visitor.postMultipart(
    `/publisher/books/upload?_csrf=${encodeURIComponent(csrf)}`,
    form,
  );
  assert.equal(book.status, 200, book.html);
  assert.match(book.url, /^\/publisher\/books\/bk_\w+\?done=uploaded$/);
  const text = textOf(book.html);
  assert.match(text, /By Maya Lindqvist/);
  assert.match(text, /3 chapters/);
  assert.match(text, /Chapter 2/);
  const bookId = /\/publisher\/books\/(bk_\w+)/.exec(book.url)![1];
  const deleted = await visitor.post(`/publisher/books/${bookId}/delete`, { _csrf: csrf });
  assert.equal(deleted.url, "/publisher/books?done=deleted");
  assert.match(textOf(deleted.html), /No books yet/);
  const missing = await visitor.post(`/publisher/books/${bookId}/delete`, { _csrf: csrf });
  assert.equal(missing.status, 404);
});

Deno.test("a sync can be started from the sources page, and an upload's failed or cancelled URLs retried", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const sources = await visitor.get("/publisher/sources");
  const csrf = hidden(sources.html);
  const synced = await visitor.post("/publisher/jobs", { _csrf: csrf, kind: "sync" });
  assert.match(synced.url, /^\/publisher\/jobs\/job_\w+\?done=queued$/);
  const bad = await visitor.post("/publisher/jobs", { _csrf: csrf, kind: "everything" });
  assert.equal(bad.status, 400);
  assert.match(textOf(bad.html), /kind: must be drain or sync/);

  const uploaded = await visitor.postMultipart(
    `/publisher/sources/upload?_csrf=${encodeURIComponent(csrf)}`,
    csvForm("https://a.example/1\n"),
  );
  const jobId = /\/publisher\/jobs\/(job_\w+)/.exec(uploaded.url)![1];
  await visitor.post(`/publisher/jobs/${jobId}/cancel`, { _csrf: csrf });
  const list = await visitor.get("/publisher/sources");
  const sourceId = /href="\/publisher\/sources\/(src_\w+)"/.exec(list.html)![1];
  const retried = await visitor.post(`/publisher/sources/${sourceId}/retry`, { _csrf: csrf });
  assert.match(retried.url, /^\/publisher\/jobs\/job_\w+\?done=retried$/);
  assert.match(textOf(retried.html), /0 of 1 done/);
  const nothing = await visitor.post(`/publisher/sources/${sourceId}/retry`, { _csrf: csrf });
  assert.equal(nothing.status, 409, "nothing left to retry");
});

Deno.test("a refused upload names the field by its label beside it: a CSV not in UTF-8, a book without a title (issue 34)", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const csrf = encodeURIComponent(hidden((await visitor.get("/publisher/sources")).html));
  const utf16 = new FormData();
  utf16.append("file", new File([new Uint8Array([0xff, 0xfe, 0x68, 0x00])], "u.csv"));
  const csv = await visitor.postMultipart(`/publisher/sources/upload?_csrf=${csrf}`, utf16);
  assert.equal(csv.status, 415);
  assert.match(
    csv.html,
    /<p class="problem field-error" id="file-error" role="alert">CSV file: UTF-16 is not supported; save as UTF-8<\/p>/,
  );
  assert.match(csv.html, /aria-invalid="true" aria-describedby="file-error" id="csv"/);
  const book = new FormData();
  book.append("file", new File(["# One\n\nText.\n"], "b.md", { type: "text/markdown" }));
  book.append("author", "Maya Lindqvist");
  const untitled = await visitor.postMultipart(`/publisher/books/upload?_csrf=${csrf}`, book);
  assert.equal(untitled.status, 400);
  assert.match(textOf(untitled.html), /Title: is required/);
  assert.match(untitled.html, /aria-invalid="true" aria-describedby="title-error" id="book-title"/);
});
