/** Fetcher tests: byte caps, deadlines, retries and content types. */
import assert from "node:assert/strict";
import { makeFetcher, rawServer, readHead, refused, serve } from "./_fetcher_test_utils.ts";

/** A body that never ends, produced only as fast as it is read. */
function endless(chunk: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({ pull: (c) => c.enqueue(chunk) }, { highWaterMark: 0 });
}

Deno.test("fetch() aborts a never-ending body at the byte cap", async () => {
  const site = serve((req) =>
    new URL(req.url).pathname === "/declared"
      ? new Response(new Uint8Array(300_000))
      : new Response(endless(new Uint8Array(16 * 1024)))
  );
  const fetcher = makeFetcher({ maxBytes: 256 * 1024 });
  try {
    const err = await refused(fetcher.fetch(`${site.base}/endless`), "too_large");
    assert.match(err.message, /body exceeds 262144 bytes/);
    await refused(fetcher.fetch(`${site.base}/declared`), "too_large");
    assert.equal(
      (await fetcher.fetch(`${site.base}/declared`, { maxBytes: 300_000 })).bytes.length,
      300_000,
    );
  } finally {
    await site.close();
  }
});

Deno.test("fetch() does not trust a lying Content-Length", async () => {
  const raw = rawServer(async (conn) => {
    await readHead(conn);
    const head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n";
    await conn.write(new TextEncoder().encode(head));
    const junk = new Uint8Array(64 * 1024).fill(97);
    for (let i = 0; i < 80; i++) await conn.write(junk); // 5 MB after a declared 100
  });
  try {
    const res = await makeFetcher({ maxBytes: 1024 }).fetch(`http://127.0.0.1:${raw.port}/`);
    assert.equal(res.bytes.length, 100, "never more than the declared length, never past the cap");
    await refused(
      makeFetcher({ maxBytes: 50 }).fetch(`http://127.0.0.1:${raw.port}/`),
      "too_large",
    );
  } finally {
    await raw.close();
  }
});

Deno.test("fetch() counts decompressed bytes, so a gzip bomb stops at the cap", async () => {
  const inflated = 8 * 1024 * 1024;
  const gz = new Uint8Array(
    await new Response(
      new Blob([new Uint8Array(inflated)]).stream().pipeThrough(new CompressionStream("gzip")),
    )
      .arrayBuffer(),
  );
  assert.ok(gz.length < 64 * 1024, `bomb is ${gz.length} bytes on the wire`);
  const site = serve(() =>
    new Response(gz, { headers: { "content-encoding": "gzip", "content-type": "text/html" } })
  );
  try {
    await refused(makeFetcher({ maxBytes: 1024 * 1024 }).fetch(site.base), "too_large");
    const whole = await makeFetcher({ maxBytes: inflated }).fetch(site.base);
    assert.equal(whole.bytes.length, inflated, "the cap is on inflated bytes, not wire bytes");
  } finally {
    await site.close();
  }
});

Deno.test("fetch() ends a slow-loris body with timeout and frees the host slot", async () => {
  const site = serve((req) => {
    if (new URL(req.url).pathname === "/fast") return new Response("fast");
    let timer: ReturnType<typeof setInterval>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (timer = setInterval(() => c.enqueue(new Uint8Array([120])), 200)),
      cancel: () => clearInterval(timer),
    });
    return new Response(body);
  });
  const fetcher = makeFetcher({ perHostConcurrency: 1, timeoutMs: 1000, retries: 2 });
  try {
    // The body never ends: only a deadline that covers it ends the call, and it is not retried.
    const err = await refused(fetcher.fetch(`${site.base}/slow`), "timeout");
    assert.match(err.message, /no complete response within 1000 ms/);
    assert.equal(site.hits(), 1);
    // Had the slot been kept, this call would queue for it forever (queueing is no timeout).
    assert.equal((await fetcher.fetch(`${site.base}/fast`)).text(), "fast");
  } finally {
    await site.close();
  }
});

Deno.test("fetch() times out when response headers never arrive", async () => {
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  const site = serve(async () => {
    await released;
    return new Response("late");
  });
  try {
    await refused(makeFetcher({ timeoutMs: 300 }).fetch(site.base), "timeout");
  } finally {
    release();
    await site.close();
  }
});

Deno.test("fetch() retries a connect timeout, then reports timeout", async () => {
  let dials = 0;
  const fetcher = makeFetcher({
    connectTimeoutMs: 50,
    retries: 2,
    // The whole-request deadline far beyond three dials, so a loaded machine cannot reach it first.
    timeoutMs: 60_000,
    dial: (_address, { signal }) => {
      dials++;
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason))
      );
    },
  });
  const err = await refused(fetcher.fetch("http://pages.test/"), "timeout");
  assert.match(err.message, /connection timed out after 50 ms/);
  assert.equal(dials, 3);
});

Deno.test("fetch() retries a connection reset", async () => {
  const raw = rawServer(async (conn) => {
    await readHead(conn); // then hang up without a response
  });
  try {
    await refused(makeFetcher({ retries: 2 }).fetch(`http://127.0.0.1:${raw.port}/`), "network");
    assert.equal(raw.hits(), 3);
  } finally {
    await raw.close();
  }
});

Deno.test("fetch() retries 503 then succeeds, and never retries 404", async () => {
  const attempts = { flaky: 0, down: 0, missing: 0 };
  const site = serve((req) => {
    const path = new URL(req.url).pathname.slice(1) as keyof typeof attempts;
    attempts[path]++;
    if (path === "flaky" && attempts.flaky < 3) return new Response("busy", { status: 503 });
    if (path === "down") return new Response("down", { status: 503 });
    if (path === "missing") return new Response("no", { status: 404 });
    return new Response("fine");
  });
  const fetcher = makeFetcher({ retries: 2 });
  try {
    assert.equal((await fetcher.fetch(`${site.base}/flaky`)).text(), "fine");
    assert.equal(attempts.flaky, 3);
    assert.equal((await refused(fetcher.fetch(`${site.base}/down`), "http_status")).status, 503);
    assert.equal(attempts.down, 3);
    const missing = await refused(fetcher.fetch(`${site.base}/missing`), "http_status");
    assert.equal(missing.status, 404);
    assert.equal(attempts.missing, 1);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() refuses a content type outside the accepted list without reading the body", async () => {
  const site = serve((req) => {
    const type = new URL(req.url).searchParams.get("type")!;
    if (type === "application/pdf") {
      return new Response(endless(new Uint8Array(1024)), { headers: { "content-type": type } });
    }
    return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
      headers: { "content-type": type },
    });
  });
  const fetcher = makeFetcher();
  const html = ["text/html", "application/xhtml+xml"];
  const get = (type: string) =>
    fetcher.fetch(`${site.base}/?type=${encodeURIComponent(type)}`, { accept: html });
  try {
    const err = await refused(get("application/pdf"), "unsupported_type");
    assert.match(err.message, /content type application\/pdf is not one of text\/html/);
    await refused(get("image/png"), "unsupported_type");
    assert.equal((await get("text/html; charset=windows-1252")).text(), "café");
    assert.equal((await get("TEXT/HTML; charset=ISO-8859-1")).text(), "café");
    assert.equal((await get("text/html")).text(), "caf\ufffd", "utf-8 by default");
  } finally {
    await site.close();
  }
});

Deno.test("fetch() retries on the host slot it holds, so a 503 queued behind slow pages is no timeout", async () => {
  let flakyHits = 0;
  const order: string[] = [];
  const site = serve((req) => {
    const path = new URL(req.url).pathname;
    order.push(path);
    if (path === "/flaky") {
      return ++flakyHits === 1 ? new Response("busy", { status: 503 }) : new Response("fine");
    }
    return new Response("slow");
  });
  const fetcher = makeFetcher({ perHostConcurrency: 1, retries: 1 });
  try {
    // The 503 call takes the only slot first; two pages queue behind it. Its retry comes before
    // them: queueing again would spend its deadline on their pages.
    const flaky = fetcher.fetch(`${site.base}/flaky`);
    const slow = [1, 2].map(() => fetcher.fetch(`${site.base}/slow`));
    assert.equal((await flaky).text(), "fine");
    assert.equal(flakyHits, 2);
    assert.deepEqual((await Promise.all(slow)).map((r) => r.text()), ["slow", "slow"]);
    assert.deepEqual(order, ["/flaky", "/flaky", "/slow", "/slow"]);
  } finally {
    await site.close();
  }
});
