import assert from "node:assert/strict";
import {
  createFetcher,
  type FetcherOptions,
  FetchRefused,
  type FetchRefusedCode,
} from "./fetcher.ts";

const UA = "FolioBot/1.0 (+https://folio.test/bot)";
const PUBLIC = "93.184.216.34"; // stands in for a public site; tests route it to a local server

type Handler = (req: Request) => Response | Promise<Response>;

/** A local HTTP server on 127.0.0.1:0 that counts requests. */
function serve(handler: Handler, tls?: { cert: string; key: string }) {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, (req) => {
    hits++;
    return handler(req);
  });
  return {
    port: server.addr.port,
    base: `http://127.0.0.1:${server.addr.port}`,
    hits: () => hits,
    close: () => server.shutdown(),
  };
}

/** A raw TCP listener on 127.0.0.1:0 that counts connections; `onConn` decides what to send. */
function rawServer(onConn: (conn: Deno.Conn) => Promise<void> = async () => {}) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let hits = 0;
  const tasks: Promise<void>[] = [];
  const loop = (async () => {
    for await (const conn of listener) {
      hits++;
      tasks.push(
        onConn(conn).catch(() => {}).finally(() => {
          try {
            conn.close();
          } catch { /* closed by the handler */ }
        }),
      );
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    hits: () => hits,
    close: async () => {
      listener.close();
      await loop;
      await Promise.all(tasks);
    },
  };
}

async function readHead(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(8192);
  let text = "";
  while (!text.includes("\r\n\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return text;
}

function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = (name: string) => {
    calls.push(name);
    const answer = table[name];
    if (!answer) return Promise.reject(new Error(`NXDOMAIN ${name}`));
    return Promise.resolve(typeof answer === "function" ? answer() : answer);
  };
  return { calls, resolve };
}

function makeFetcher(extra: Partial<FetcherOptions> = {}) {
  return createFetcher({
    userAgent: UA,
    allowLoopback: true,
    minHostIntervalMs: 0,
    retries: 0,
    retryBaseMs: 5,
    timeoutMs: 3000,
    connectTimeoutMs: 1000,
    resolve: fakeResolver({ "pages.test": ["127.0.0.1"] }).resolve,
    ...extra,
  });
}

async function refused(p: Promise<unknown>, code: FetchRefusedCode): Promise<FetchRefused> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof FetchRefused, `expected FetchRefused ${code}, got ${err}`);
  assert.equal(err.code, code, err.message);
  return err;
}

const LITERALS = [
  "127.0.0.1",
  "localhost",
  "localhost.",
  "0.0.0.0",
  "[::]",
  "[::1]",
  "169.254.169.254",
  "[fd00:ec2::254]",
  "10.0.0.1",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "100.64.0.1",
  "198.18.0.1",
  "224.0.0.1",
  "255.255.255.255",
  "2130706433",
  "0x7f000001",
  "0177.0.0.1",
  "127.1",
  "127.000.000.001",
  "%31%32%37.0.0.1",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[64:ff9b::7f00:1]",
  "[2002:7f00:1::]",
  "[fc00::1]",
];

Deno.test("fetch() refuses forbidden IP literals and encodings without connecting", async () => {
  const canary = rawServer();
  const dialed: string[] = [];
  const { calls, resolve } = fakeResolver({});
  const fetcher = makeFetcher({
    allowLoopback: false,
    allowedPorts: [80, 443, canary.port],
    resolve,
    dial: (address, { port, signal }) => {
      dialed.push(address);
      return Deno.connect({ hostname: address, port, signal });
    },
  });
  try {
    for (const host of LITERALS) {
      const err = await refused(fetcher.fetch(`http://${host}:${canary.port}/`), "blocked_address");
      assert.ok(err.reason, host);
    }
    const err = await refused(fetcher.fetch("http://10.0.0.1/"), "blocked_address");
    assert.equal(err.message, "Refused http://10.0.0.1/: address 10.0.0.1 is private");
    assert.equal(
      (await refused(fetcher.fetch("http://2130706433/"), "blocked_address")).reason,
      "loopback",
    );
    const meta = await refused(
      fetcher.fetch("http://169.254.169.254/latest/meta-data/"),
      "blocked_address",
    );
    assert.equal(meta.reason, "link_local");
    assert.deepEqual(calls, [], "literals and localhost never reach the resolver");
    assert.deepEqual(dialed, []);
    assert.equal(canary.hits(), 0);
  } finally {
    await canary.close();
  }
});

Deno.test("fetch() refuses a name when any resolver answer is forbidden", async () => {
  const canary = rawServer();
  const { calls, resolve } = fakeResolver({
    "127.0.0.1.nip.io": ["127.0.0.1"],
    "mixed.test": [PUBLIC, "::1"],
    "metadata.google.internal": ["169.254.169.254"],
    "v6.test": ["2606:4700::1111", "fd00::5"],
  });
  const fetcher = makeFetcher({ allowLoopback: false, allowedPorts: [80, canary.port], resolve });
  try {
    for (const name of ["127.0.0.1.nip.io", "mixed.test", "v6.test"]) {
      await refused(fetcher.fetch(`http://${name}:${canary.port}/`), "blocked_address");
    }
    const err = await refused(fetcher.fetch("http://metadata.google.internal/"), "blocked_address");
    assert.match(
      err.message,
      /metadata\.google\.internal resolves to 169\.254\.169\.254, which is link-local/,
    );
    await refused(fetcher.fetch("http://nowhere.test/"), "dns_failure");
    assert.equal(calls.length, 5);
    assert.equal(canary.hits(), 0);
  } finally {
    await canary.close();
  }
});

Deno.test("fetch() rejects other schemes, userinfo and malformed hosts at parse time", async () => {
  const { calls, resolve } = fakeResolver({ "public.com": ["10.0.0.1"] });
  const fetcher = makeFetcher({ allowLoopback: false, resolve });
  const schemes = ["file:///etc/passwd", "ftp://x/", "gopher://x/", "data:text/html,hi"];
  for (const url of [...schemes, "javascript:alert(1)", "dict://x/", "ldap://x/"]) {
    await refused(fetcher.fetch(url), "bad_scheme");
  }
  await refused(fetcher.fetch("http://public.com@127.0.0.1/"), "userinfo");
  await refused(fetcher.fetch("http://user:pw@public.com/"), "userinfo");
  await refused(fetcher.fetch("http://a.com%0d%0aHost:%20x"), "bad_url");
  await refused(fetcher.fetch("http://[fe80::1%25eth0]/"), "bad_url");
  await refused(fetcher.fetch("not a url"), "bad_url");
  await refused(fetcher.fetch("http://127.0.0.1#@public.com/"), "blocked_address");
  assert.deepEqual(calls, []);
  // WHATWG reads "\" as "/": the host is public.com, and that is the host that gets checked.
  const err = await refused(fetcher.fetch("http://public.com\\@127.0.0.1/"), "blocked_address");
  assert.match(err.message, /public\.com resolves to 10\.0\.0\.1/);
  assert.deepEqual(calls, ["public.com"]);
});

Deno.test("fetch() refuses ports outside the allowed list except on loopback", async () => {
  const { calls, resolve } = fakeResolver({
    "public.com": [PUBLIC],
    "split.test": ["127.0.0.1", PUBLIC],
  });
  const strict = makeFetcher({ allowLoopback: false, resolve });
  for (const port of [22, 6379, 5432]) {
    await refused(strict.fetch(`http://public.com:${port}/`), "bad_port");
  }
  assert.deepEqual(calls, [], "the port is refused before any lookup");
  const loose = makeFetcher({ allowLoopback: true, resolve });
  await refused(loose.fetch("http://public.com:6379/"), "bad_port");
  await refused(loose.fetch("http://split.test:6379/"), "bad_port");
});

Deno.test("allowLoopback still refuses 10.x, 169.254.x, 0.0.0.0 and mapped loopback", async () => {
  const fetcher = makeFetcher({ allowLoopback: true });
  for (
    const host of [
      "10.0.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "[::ffff:127.0.0.1]",
      "[::]",
      "[fc00::1]",
    ]
  ) {
    await refused(fetcher.fetch(`http://${host}:8080/`), "blocked_address");
  }
});

// Test-only CA and a leaf certificate for "pages.test" (EC P-256, valid to 2126). Not a secret.
const TEST_CA = `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUU8VJDlFphVIcPS1liIaynDnxU7wwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTAgFw0yNjExMjMxMDQwMzBaGA8yMTI2
MTAzMDEwNDAzMFowGDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABHWpPnjmbarmriVa7BA4wwxUx0C9OrLDEz1bGddgxxuf
mAUymwV23/e+RTrtrLMK4rOZOUxE/6K0RLy6U3ysxcWjUzBRMB0GA1UdDgQWBBQ3
skFg139REBQcdQapGprSx/sEWDAfBgNVHSMEGDAWgBQ3skFg139REBQcdQapGprS
x/sEWDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIBAWU03e15ch
ViQaJxFE+O8BHyc/eORjc9Ch+Gh/avGTAiBGoMjFNlHrpIr7Zlxbfr5UDmAEYCA0
kOyJAMQWehapQA==
-----END CERTIFICATE-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBuDCCAV+gAwIBAgIUOr3/2Flij6IGP91ns2JwQgJVDXQwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTAgFw0yNjExMjMxMDQwMzBaGA8yMTI2
MTAzMDEwNDAzMFowFTETMBEGA1UEAwwKcGFnZXMudGVzdDBZMBMGByqGSM49AgEG
CCqGSM49AwEHA0IABAf5fqtzCoTcQKD8ANM8Ou0WxD/eVDwRlUl3gZSbCPZCIsck
tlDkp7K6MBjHY12XeZtQifqozxpZ/6G1PGlGLqOjgYcwgYQwFQYDVR0RBA4wDIIK
cGFnZXMudGVzdDAJBgNVHRMEAjAAMAsGA1UdDwQEAwIHgDATBgNVHSUEDDAKBggr
BgEFBQcDATAdBgNVHQ4EFgQUFNevGu8ivXxQ9xWPIdO/qfPj0aswHwYDVR0jBBgw
FoAUN7JBYNd/URAUHHUGqRqa0sf7BFgwCgYIKoZIzj0EAwIDRwAwRAIgfQYxF6Xf
3VMJ2t4sUI2rBktibiE92OeasBfcY1Tz9FcCID0nlbWX+bUTPI+Mcw3bC1AR95RL
0UoCoRVsyiUPWE5Q
-----END CERTIFICATE-----`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgxdN9GsfwpXerQS/r
mKUh4ZQXJXuOiUNQuFJU7oBdfNuhRANCAAQH+X6rcwqE3ECg/ADTPDrtFsQ/3lQ8
EZVJd4GUmwj2QiLHJLZQ5KeyujAYx2Ndl3mbUIn6qM8aWf+htTxpRi6j
-----END PRIVATE KEY-----`;

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

Deno.test("fetch() over https pins the address while TLS verifies the URL host name", async () => {
  const site = serve((req) => new Response(`tls ${new URL(req.url).host}`), {
    cert: TEST_CERT,
    key: TEST_KEY,
  });
  const { resolve } = fakeResolver({ "pages.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
  let dials = 0;
  const fetcher = makeFetcher({
    caCerts: [TEST_CA],
    resolve,
    retries: 2,
    dial: (address, { port, signal }) => {
      dials++;
      return Deno.connect({ hostname: address, port, signal });
    },
  });
  try {
    const res = await fetcher.fetch(`https://pages.test:${site.port}/`);
    assert.equal(res.text(), `tls pages.test:${site.port}`);
    assert.equal(res.address, "127.0.0.1");
    // Same address, wrong name: the certificate does not match, so the pin is no TLS bypass.
    const err = await refused(fetcher.fetch(`https://other.test:${site.port}/`), "network");
    assert.match(err.message, /certificate/);
    assert.equal(dials, 2, "a rejected certificate is not retried");
    assert.equal(site.hits(), 1);
  } finally {
    await site.close();
  }
});

Deno.test("Deno's tcp proxy transport sends https as plaintext, so the fetcher tunnels via SOCKS5", async () => {
  let firstBytes = "";
  const raw = rawServer(async (conn) => {
    firstBytes = await readHead(conn);
  });
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: raw.port },
  });
  try {
    await fetch("https://pages.test/x", { client }).then((r) => r.body?.cancel(), () => {});
    // If this starts failing, Deno now does TLS over the tcp transport and the tunnel could go.
    assert.match(firstBytes, /^GET https:\/\/pages\.test\/x HTTP\/1\.1\r\n/);
  } finally {
    client.close();
    await raw.close();
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
    const started = Date.now();
    const err = await refused(fetcher.fetch(`${site.base}/slow`), "timeout");
    assert.match(err.message, /no complete response within 1000 ms/);
    assert.ok(Date.now() - started < 1500, "the deadline covers the body and is not retried");
    assert.equal(site.hits(), 1);
    assert.equal((await fetcher.fetch(`${site.base}/fast`, { timeoutMs: 500 })).text(), "fast");
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

/** A server that records the most requests it ever had in flight at once. */
function trackingServer(delayMs: number) {
  const stats = { inFlight: 0, max: 0, starts: [] as number[] };
  const site = serve(async () => {
    stats.starts.push(Date.now());
    stats.max = Math.max(stats.max, ++stats.inFlight);
    await new Promise((r) => setTimeout(r, delayMs));
    stats.inFlight--;
    return new Response("ok");
  });
  return { site, stats };
}

Deno.test("fetch() keeps at most perHostConcurrency requests in flight to one host", async () => {
  const { site, stats } = trackingServer(40);
  const fetcher = makeFetcher({ perHostConcurrency: 2 });
  try {
    const all = await Promise.all(Array.from({ length: 10 }, () => fetcher.fetch(site.base)));
    assert.equal(all.length, 10);
    assert.equal(stats.max, 2);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() keeps a global cap across hosts", async () => {
  const { site, stats } = trackingServer(40);
  const names = ["a.test", "b.test", "c.test", "d.test"];
  const { resolve } = fakeResolver(Object.fromEntries(names.map((n) => [n, ["127.0.0.1"]])));
  const fetcher = makeFetcher({ perHostConcurrency: 2, maxConcurrent: 3, resolve });
  try {
    await Promise.all(
      names.flatMap((n) => [1, 2, 3].map(() => fetcher.fetch(`http://${n}:${site.port}/`))),
    );
    assert.equal(stats.max, 3);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() spaces request starts to one host by minHostIntervalMs", async () => {
  const { site, stats } = trackingServer(0);
  const fetcher = makeFetcher({ perHostConcurrency: 4, minHostIntervalMs: 80 });
  try {
    await Promise.all(Array.from({ length: 4 }, () => fetcher.fetch(site.base)));
    const gaps = stats.starts.slice(1).map((t, i) => t - stats.starts[i]);
    assert.ok(gaps.every((g) => g >= 70), `gaps ${gaps}`);
  } finally {
    await site.close();
  }
});

Deno.test("fetch() sends its User-Agent and never forwards credentials", async () => {
  const seen: Headers[] = [];
  const site = serve(async (req) => {
    seen.push(req.headers);
    if (new URL(req.url).pathname === "/hop") {
      return new Response(null, { status: 307, headers: { location: `${site.base}/end` } });
    }
    return new Response(req.method === "POST" ? await req.text() : "ok");
  });
  const fetcher = makeFetcher();
  const headers = {
    Authorization: "Bearer sk-provider",
    Cookie: "session=1",
    "Proxy-Authorization": "Basic eDp5",
    "X-Forwarded-For": "10.1.2.3",
    "X-Request-Id": "abc",
  };
  try {
    await fetcher.fetch(`${site.base}/`, { headers, accept: ["text/html", "text/plain"] });
    const h = seen[0];
    assert.equal(h.get("user-agent"), UA);
    assert.equal(h.get("accept"), "text/html, text/plain");
    assert.equal(h.get("x-request-id"), "abc");
    for (const name of ["authorization", "cookie", "proxy-authorization", "x-forwarded-for"]) {
      assert.equal(h.get(name), null, name);
    }
    // The embeddings provider key: sent when asked, to the first origin only.
    const post = await fetcher.fetch(`http://pages.test:${site.port}/hop`, {
      method: "POST",
      body: '{"input":"hi"}',
      headers: { ...headers, "content-type": "application/json" },
      allowAuthorization: true,
    });
    assert.equal(post.text(), '{"input":"hi"}', "307 keeps method and body");
    assert.equal(seen[1].get("authorization"), "Bearer sk-provider");
    assert.equal(seen[1].get("cookie"), null);
    assert.equal(seen[2].get("authorization"), null, "not forwarded to another origin");
  } finally {
    await site.close();
  }
});
