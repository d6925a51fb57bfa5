/** Fetcher tests: forbidden addresses, literal encodings, schemes and ports. */
import assert from "node:assert/strict";
import { fakeResolver, makeFetcher, PUBLIC, rawServer, refused } from "./_fetcher_test_utils.ts";

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
