/**
 * Hostile PDFs (issue 28): each is refused with 422 and a sentence, and the reader process that
 * read it is gone afterwards, whether it refused, crashed, ran out of time or out of memory.
 */
import assert from "node:assert/strict";
import { AppError } from "../server/platform/errors.ts";
import {
  livePdfReaders,
  PDF_ARG,
  pdfText,
  type ReaderCommand,
  readerCommand,
} from "../server/domain/catalog/pdf_text.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { makePdf } from "./fixtures/pdf.ts";
import {
  cyclicTree,
  deepTree,
  garbagePdf,
  sharedContentsBomb,
  sharedKidsBomb,
  truncatedPdf,
} from "./fixtures/pdf_bombs.ts";
import { testFolio } from "./helpers.ts";

/** Runs `work`, noting every reader process alive meanwhile and the most alive at once. */
async function watched<T>(
  work: Promise<T>,
): Promise<{ error: unknown; pids: number[]; most: number }> {
  const pids = new Set<number>();
  let most = 0, settled = false, error: unknown = null;
  const done = work.then(() => {}, (e) => void (error = e)).finally(() => settled = true);
  while (!settled) {
    const live = livePdfReaders();
    for (const pid of live) pids.add(pid);
    most = Math.max(most, live.length);
    await new Promise((r) => setTimeout(r, 2));
  }
  await done;
  return { error, pids: [...pids], most };
}

/** The refusal's message, after checking it is the 422 and that no reader outlived it. */
async function refusal(work: Promise<unknown>): Promise<string> {
  const { error, pids } = await watched(work);
  assert.ok(error instanceof AppError, `expected a refusal, got ${error}`);
  assert.equal(error.status, 422);
  assert.equal(error.code, "unprocessable_pdf");
  assert.ok(pids.length > 0, "a reader process was started");
  assertGone(pids);
  return error.message;
}

function assertGone(pids: number[]): void {
  assert.deepEqual(livePdfReaders(), []);
  // SIGCONT changes nothing in a live process; a process that is gone cannot be signalled.
  for (const pid of pids) assert.throws(() => Deno.kill(pid, "SIGCONT"), Deno.errors.NotFound);
}

/** A stand-in reader: a script under `deno eval` (the limits arrive as its argument). */
function fake(script: string): ReaderCommand {
  return { command: Deno.execPath(), args: ["eval", "--quiet", script] };
}

Deno.test("each hostile page tree and broken file is refused through the API, and no reader is left", async () => {
  await using folio = await testFolio();
  const cases: [string, Uint8Array, RegExp][] = [
    ["kids.pdf", sharedKidsBomb(), /its page tree lists object 4 2000 times/],
    ["cycle.pdf", cyclicTree(), /its page tree runs in a circle/],
    ["deep.pdf", deepTree(2000), /its page tree is more than 100 levels deep/],
    ["noise.pdf", garbagePdf(), /it could not be read \(.+\)/],
    ["cut.pdf", truncatedPdf(), /it could not be read \(.+\)/],
  ];
  for (const [name, bytes, words] of cases) {
    const form = new FormData();
    form.set("file", new File([bytes as BlobPart], name, { type: "application/pdf" }));
    form.set("title", "A Book");
    form.set("author", "Jo Writer");
    const res = await folio.request("/api/publisher/books", {
      method: "POST",
      headers: auth(folio),
      body: form,
    });
    const body = await res.json();
    assert.equal(res.status, 422, `${name}: ${JSON.stringify(body)}`);
    assert.equal(body.error.code, "unprocessable_pdf");
    assert.match(body.error.message, /^file: the PDF cannot be processed: /);
    assert.match(body.error.message, words, name);
    assert.deepEqual(livePdfReaders(), [], name);
  }
  const list = await folio.request("/api/publisher/books", { headers: auth(folio) });
  assert.deepEqual((await list.json()).books, []);
});

Deno.test("a reader is killed at its deadline, past its memory ceiling or its text limit", async () => {
  // Distinct pages sharing one large content stream: no page tree check can see it.
  const slow = sharedContentsBomb(2000, 4 * 1024 * 1024);
  assert.match(await refusal(pdfText(slow, { timeoutMs: 1000 })), /took longer than 1 s$/);
  const memory = await refusal(pdfText(slow, { maxMemory: 48 * 1024 * 1024 }));
  assert.match(memory, /reading it needed more than 48 MB of memory$/);
  // Array buffers lie outside V8's heap limit and a stalled reader checks nothing: only the
  // server's watch of its resident memory (/proc, read through libc) can stop this one.
  const hoarder = fake(
    "const keep = []; for (let i = 0; i < 12; i++) keep.push(new Uint8Array(16 << 20).fill(1));" +
      "await new Promise((r) => setTimeout(r, 600_000))",
  );
  const held = pdfText(makePdf({ pages: [["x"]] }), { maxMemory: 128 << 20 }, hoarder);
  assert.match(await refusal(held), /reading it needed more than 128 MB of memory$/);
  const wordy = sharedContentsBomb(20, 256 * 1024);
  assert.match(
    await refusal(pdfText(wordy, { maxText: 10_000 })),
    /text runs past 10000 characters/,
  );
});

Deno.test("a reader whose server is gone ends itself at its own deadline", async () => {
  // No parent kills this one: it is started by hand, as an orphan would be left.
  const { command, args } = readerCommand();
  const limits = {
    timeoutMs: 1500,
    maxPages: 2000,
    maxInflated: 1 << 28,
    maxText: 1e9,
    maxMemory: 1 << 30,
  };
  const child = new Deno.Command(command, {
    args: [...args, JSON.stringify(limits)],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(sharedContentsBomb(2000, 4 * 1024 * 1024));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 1);
  assert.equal(stdout.length, 0);
  assert.equal(new TextDecoder().decode(stderr), "reading it took longer than 1.5 s\n");
});

Deno.test("a reader that crashes, is killed, hangs or answers nonsense is a 422 with a sentence", async () => {
  const pdf = makePdf({ pages: [["x"]] });
  const cases: [string, RegExp, { timeoutMs?: number; maxText?: number; maxMemory?: number }?][] = [
    ["Deno.exit(3)", /stopped unexpectedly \(exit code 3\)$/],
    [`Deno.kill(Deno.pid, "SIGKILL")`, /stopped unexpectedly \(signal SIGKILL\)$/],
    [`console.error("it is haunted\\nsecond line"); Deno.exit(1)`, /processed: it is haunted$/],
    [`console.log("not json")`, /the PDF reader's answer could not be read$/],
    [`console.log('{"pages": [1], "outline": []}')`, /answer could not be read$/],
    [
      "const b = new Uint8Array(65536); for (;;) Deno.stdout.writeSync(b)",
      /its text is too large to read$/,
      { maxText: 1000 },
    ],
    [
      "const a = []; for (;;) a.push(new Array(1e5).fill(Math.random()))",
      /needed more than 64 MB of memory$/,
      { maxMemory: 64 * 1024 * 1024 },
    ],
    // It never reads its input either: the write to it waits until the kill.
    ["await new Promise((r) => setTimeout(r, 600_000))", /took longer than 0.5 s$/, {
      timeoutMs: 500,
    }],
  ];
  for (const [script, words, limits] of cases) {
    assert.match(await refusal(pdfText(pdf, limits, fake(script))), words, script);
  }
});

Deno.test("one reader runs at a time; the next waits for it", async () => {
  const sleeper = fake("await new Promise((r) => setTimeout(r, 600_000))");
  const pdf = makePdf({ pages: [["x"]] });
  const both = Promise.allSettled([
    pdfText(pdf, { timeoutMs: 300 }, sleeper),
    pdfText(pdf, { timeoutMs: 300 }, sleeper),
  ]);
  const { pids, most } = await watched(both);
  assert.equal(most, 1);
  assert.equal(pids.length, 2);
  assertGone(pids);
  for (const r of await both) assert.equal(r.status, "rejected");
});

Deno.test("main.ts given --folio-pdf is the PDF reader, as the compiled binary runs itself", async () => {
  const pdf = makePdf({
    pages: [["Opening words."], ["The harbour at dawn.", "Boats leave."]],
    outline: [{ title: "Dawn", page: 1 }],
  });
  const main = new URL("../main.ts", import.meta.url).pathname;
  // The binary has its permissions built in; `deno run` needs them to load the server's modules.
  const binary = {
    command: Deno.execPath(),
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      main,
      PDF_ARG,
    ],
  };
  const { error, pids } = await watched(pdfText(pdf, {}, binary));
  assert.equal(error, null);
  assertGone(pids);
  const expected = { pages: ["Opening words.", "The harbour at dawn.\nBoats leave."], outline: [] };
  const read = await pdfText(pdf);
  assert.deepEqual(read.pages, expected.pages);
  assert.deepEqual(read.outline, [{ title: "Dawn", page: 1 }]);
  assert.deepEqual(await pdfText(pdf, {}, binary), read);
});
