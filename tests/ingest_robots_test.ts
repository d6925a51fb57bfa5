/** robots.txt over HTTP (RFC 9309 section 2.3): redirects, statuses and the size limit. */
import assert from "node:assert/strict";
import { robotsVerdict } from "../server/domain/catalog/robots.ts";
import { oversizedRobots } from "./fixtures/robots_cases.ts";
import { testFolio } from "./helpers.ts";

const LOOPBACK = { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } };

/** A host whose /robots.txt answers with `answer()`; /hop/<n> takes n redirects to `rules`. */
function robotsHost(answer: () => Response, rules = "User-agent: *\nDisallow: /\n") {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const n = Number(hop[1]);
      return new Response(null, {
        status: 301,
        headers: { location: n > 1 ? `/hop/${n - 1}` : "/rules.txt" },
      });
    }
    if (path === "/rules.txt") return new Response(rules);
    if (path === "/robots.txt") return answer();
    return new Response("not found", { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

const allowed = (v: unknown) => (v as { allowed?: boolean }).allowed;

Deno.test("robots.txt past 500 KiB (no Range support) is read up to the limit, not refused", async () => {
  await using folio = await testFolio(LOOPBACK);
  const body = oversizedRobots();
  await using host = robotsHost(() =>
    new Response(body, { headers: { "content-type": "text/plain" } })
  );
  assert.ok(new TextEncoder().encode(body).length > 500 * 1024);
  assert.equal(
    allowed(await robotsVerdict(folio.deps, "pub_demo", `${host.origin}/early/a`)),
    false,
  );
  assert.equal(allowed(await robotsVerdict(folio.deps, "pub_demo", `${host.origin}/late/a`)), true);
  assert.equal(allowed(await robotsVerdict(folio.deps, "pub_demo", `${host.origin}/other`)), true);
});

Deno.test("robots.txt redirects are followed for 5 hops; beyond, the file counts as unavailable", async () => {
  await using folio = await testFolio(LOOPBACK);
  let hops = 4; // robots.txt → /hop/4 → … → /hop/1 → /rules.txt: 5 redirects
  await using host = robotsHost(() =>
    new Response(null, { status: 301, headers: { location: `/hop/${hops}` } })
  );
  const url = `${host.origin}/news/a`;
  assert.equal(allowed(await robotsVerdict(folio.deps, "pub_demo", url)), false, "5 hops: read");
  hops = 5;
  folio.clock.advance(24 * 3600_000);
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", url), { allowed: true });
});

Deno.test("robots.txt answering 429 disallows the host; 403 allows it", async () => {
  await using folio = await testFolio(LOOPBACK);
  let status = 429;
  await using host = robotsHost(() => new Response("slow down", { status }));
  const url = `${host.origin}/news/a`;
  const v = await robotsVerdict(folio.deps, "pub_demo", url);
  assert.equal(allowed(v), false);
  assert.match((v as { reason: string }).reason, /answered HTTP 429/);
  status = 403;
  folio.clock.advance(3600_000 + 1);
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", url), { allowed: true });
});
