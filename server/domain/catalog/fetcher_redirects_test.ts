/** Fetcher tests: address pinning, DNS rebinding and redirect re-validation. */
import assert from "node:assert/strict";
import {
  fakeResolver,
  makeFetcher,
  PUBLIC,
  rawServer,
  refused,
  serve,
} from "./_fetcher_test_utils.ts";

Deno.test("fetch() connects to the checked address and keeps the URL host in the request", async () => {
  const seen: { host: string | null; url: string }[] = [];
  const site = serve((req) => {
    seen.push({ host: req.headers.get("host"), url: req.url });
    return new Response("<p>hello</p>", { headers: { "content-type": "text/html" } });
  });
  try {
    const res = await makeFetcher().fetch(`http://pages.test:${site.port}/hello?x=1`, {
      accept: ["text/html"],
    });
    assert.equal(res.status, 200);
    assert.equal(res.text(), "<p>hello</p>");
    assert.equal(res.address, "127.0.0.1");
    assert.equal(res.url, `http://pages.test:${site.port}/hello?x=1`);
    assert.deepEqual(seen, [{
      host: `pages.test:${site.port}`,
      url: `http://pages.test:${site.port}/hello?x=1`,
    }]);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() resolves once per hop and connects only to the address it checked", async () => {
  const site = serve(() => new Response("ok"));
  try {
    // allowLoopback: the first answer (127.0.0.1) passes, a second lookup would say 10.0.0.1.
    const answers = [["127.0.0.1"], ["10.0.0.1"]];
    const { calls, resolve } = fakeResolver({ "pages.test": () => answers.shift() ?? [] });
    const res = await makeFetcher({ resolve }).fetch(`http://pages.test:${site.port}/`);
    assert.equal(res.address, "127.0.0.1");
    assert.deepEqual(calls, ["pages.test"]);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() survives DNS rebinding: the canary on 127.0.0.1 gets 0 hits", async () => {
  const site = serve(() => new Response("public page"));
  const canary = rawServer();
  const dialed: string[] = [];
  try {
    for (let i = 0; i < 10; i++) {
      // TTL 0: a public answer for the check, 127.0.0.1 for any later lookup.
      const answers = [[PUBLIC], ["127.0.0.1"]];
      const { calls, resolve } = fakeResolver({
        "rebind.test": () => answers.shift() ?? ["127.0.0.1"],
      });
      const fetcher = makeFetcher({
        allowLoopback: false,
        allowedPorts: [canary.port],
        resolve,
        // The stand-in network: the public address leads to the local "public" site.
        dial: (address, { port, signal }) => {
          dialed.push(address);
          const target = address === PUBLIC
            ? { hostname: "127.0.0.1", port: site.port }
            : { hostname: address, port };
          return Deno.connect({ ...target, signal });
        },
      });
      const res = await fetcher.fetch(`http://rebind.test:${canary.port}/`);
      assert.equal(res.text(), "public page");
      assert.equal(calls.length, 1);
    }
    assert.deepEqual(new Set(dialed), new Set([PUBLIC]));
    assert.equal(canary.hits(), 0);
  } finally {
    await site.close();
    await canary.close();
  }
});

Deno.test("fetch() refuses a redirect from a public site to 127.0.0.1", async () => {
  const canary = rawServer();
  const site = serve((req) => {
    const to = new URL(req.url).searchParams.get("to")!;
    return new Response(null, { status: 302, headers: { location: to } });
  });
  const { resolve } = fakeResolver({ "public.test": [PUBLIC] });
  const fetcher = makeFetcher({
    allowLoopback: false,
    allowedPorts: [80, canary.port],
    resolve,
    dial: (address, { signal }) => {
      dialed.push(address);
      return Deno.connect({ hostname: "127.0.0.1", port: site.port, signal });
    },
  });
  const dialed: string[] = [];
  try {
    for (const host of ["127.0.0.1", "localhost", "[::1]", "2130706433", "[::ffff:127.0.0.1]"]) {
      const to = encodeURIComponent(`http://${host}:${canary.port}/`);
      await refused(fetcher.fetch(`http://public.test/r?to=${to}`), "blocked_address");
    }
    assert.equal(site.hits(), 5);
    assert.deepEqual(new Set(dialed), new Set([PUBLIC]), "only the checked address is dialled");
    assert.equal(canary.hits(), 0);
  } finally {
    await site.close();
    await canary.close();
  }
});

Deno.test("fetch() re-validates every redirect hop and stops after 5", async () => {
  const site = serve((req) => {
    const url = new URL(req.url);
    const to = url.searchParams.get("to");
    if (to) {
      return new Response(null, {
        status: Number(url.searchParams.get("s") ?? 302),
        headers: { location: to },
      });
    }
    const n = Number(url.searchParams.get("n") ?? 0);
    if (n > 0) {
      return new Response(null, { status: 301, headers: { location: `/chain?n=${n - 1}` } });
    }
    return new Response(`landed on ${url.host}`);
  });
  const fetcher = makeFetcher();
  const via = (to: string, status = 302) =>
    `${site.base}/r?s=${status}&to=${encodeURIComponent(to)}`;
  try {
    await refused(fetcher.fetch(via("http://10.0.0.1/")), "blocked_address");
    await refused(
      fetcher.fetch(via("http://169.254.169.254/latest/meta-data/")),
      "blocked_address",
    );
    const file = await refused(fetcher.fetch(via("file:///etc/passwd", 301)), "bad_scheme");
    assert.equal(file.url, "file:///etc/passwd");
    await refused(fetcher.fetch(via("gopher://x/", 307)), "bad_scheme");
    await refused(fetcher.fetch(via("http://u:p@127.0.0.1/")), "userinfo");
    const hitsBefore = site.hits();
    await refused(fetcher.fetch(`${site.base}/chain?n=6`), "too_many_redirects");
    assert.equal(site.hits() - hitsBefore, 6, "the first request and 5 followed redirects");
    const res = await fetcher.fetch(`${site.base}/chain?n=5`);
    assert.equal(res.url, `${site.base}/chain?n=0`);
    const other = await fetcher.fetch(via(`http://pages.test:${site.port}/`));
    assert.equal(other.text(), `landed on pages.test:${site.port}`);
  } finally {
    await site.close();
  }
});
