/**
 * A Web Bot Auth signature pays for one request (issue 28): a replay of a signed paid request, the
 * same signature on another page, a second use of a signature that leaves out the path (paid
 * once, issue 40), and a replayed registration are refused in the dialect and charge nothing; across two processes on one store
 * too.
 */
import assert from "node:assert/strict";
import { manualClock } from "../server/platform/clock.ts";
import { REPLAYED } from "../server/domain/crawlers/signature_replay.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { GPTBOT, HOST, visit } from "./landing_helpers.ts";
import { spawnFolio } from "./processes.ts";
import { startTestSigner, type TestSigner } from "./web_bot_auth_helpers.ts";

const ENV = { FOLIO_FETCH_ALLOW_LOOPBACK: "1" };
const REGISTER = "http://127.0.0.1:8080/api/marketplace/signature-agents";

/** Three PAYWALL articles' paths (one price: the publisher's), and a buyer with `signer`'s directory registered. */
async function setUp(folio: TestFolio, signer: TestSigner) {
  const rs = await folio.deps.store.db.execute(
    `SELECT site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
     AND kind = 'article' AND price_micros IS NULL ORDER BY id LIMIT 3`,
  );
  const paths = rs.rows.map((r) => String(r.site_path));
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Signed Crawler Inc",
    email: "signed@example.test",
  }, { now: folio.clock.now() });
  const register = async (headers: Record<string, string>) =>
    await folio.request("/api/marketplace/signature-agents", {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        ...headers,
      },
      body: JSON.stringify({ agent: signer.agent }),
    });
  const registration = await signer.sign(REGISTER);
  const ok = await register(registration);
  assert.equal(ok.status, 201);
  await ok.body?.cancel();
  // The registration's signature is spent too: replayed, it proves nothing.
  const again = await register(registration);
  assert.equal(again.status, 403);
  assert.match((await again.json()).error.message, /already used/);

  const quote = await visit(folio, paths[0], { "user-agent": GPTBOT });
  const offer = { "crawler-exact-price": quote.headers.get("crawler-price")! };
  await quote.body?.cancel();
  return { paths, buyerId, offer };
}

async function landingCharges(folio: TestFolio): Promise<number> {
  const rs = await folio.deps.store.db.execute(
    "SELECT COUNT(*) AS n FROM charges WHERE kind = 'landing'",
  );
  return Number(rs.rows[0].n);
}

async function refusal(res: Response) {
  return { status: res.status, error: res.headers.get("crawler-error"), text: await res.text() };
}

Deno.test("a signed paid request is charged once: its replay and its move to another page are refused", async () => {
  await using folio = await testFolio({ env: ENV });
  await using signer = await startTestSigner({ now: () => folio.clock.now() });
  const { paths, offer } = await setUp(folio, signer);
  const url = (path: string) => `http://${HOST}:8080${path}`;
  const signed = {
    ...offer,
    ...await signer.sign(url(paths[0]), {
      headers: offer,
      cover: ["crawler-exact-price"],
    }),
  };
  const crawl = (path: string, headers: Record<string, string>) =>
    visit(folio, path, { "user-agent": GPTBOT, ...headers });

  const paid = await crawl(paths[0], signed);
  assert.equal(paid.status, 200, await paid.text());
  assert.equal(paid.headers.get("crawler-charged"), offer["crawler-exact-price"]);
  assert.equal(await landingCharges(folio), 1);

  // The same request again, at once and a minute later (still within the signature's validity).
  for (const wait of [0, 60_000]) {
    folio.clock.advance(wait);
    assert.deepEqual(await refusal(await crawl(paths[0], signed)), {
      status: 400,
      error: "InvalidSignature",
      text: `InvalidSignature: ${REPLAYED}\n`,
    });
  }
  // Moved to another paid page of the host: it does not verify there.
  const moved = await refusal(await crawl(paths[1], signed));
  assert.equal(moved.status, 400);
  assert.equal(moved.error, "InvalidSignature");
  assert.match(moved.text, /does not verify/);

  // A signature that leaves the path out (the deployed component sets, issue 40) pays once, on
  // the page it was sent to, and never again: not there, not on another page.
  const unbound = {
    ...offer,
    ...await signer.sign(url(paths[2]), {
      headers: offer,
      cover: ["crawler-exact-price"],
      path: false,
    }),
  };
  const once = await crawl(paths[2], unbound);
  assert.equal(once.status, 200, await once.clone().text());
  await once.body?.cancel();
  assert.equal(await landingCharges(folio), 2);
  for (const path of [paths[2], paths[1]]) {
    assert.deepEqual(await refusal(await crawl(path, unbound)), {
      status: 400,
      error: "InvalidSignature",
      text: `InvalidSignature: ${REPLAYED}\n`,
    }, path);
  }
  assert.equal(await landingCharges(folio), 2, "nothing charged after the unbound read");

  // A fresh signature of the second page pays once more.
  const fresh = await crawl(paths[1], {
    ...offer,
    ...await signer.sign(url(paths[1]), { headers: offer, cover: ["crawler-exact-price"] }),
  });
  assert.equal(fresh.status, 200);
  await fresh.body?.cancel();
  assert.equal(await landingCharges(folio), 3);
});

Deno.test("a signature spent on one process is refused by another on the same store", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-replay-2p-" });
  try {
    // The child runs on the real clock: so does this one.
    await using a = await testFolio({ dataDir, env: ENV, clock: manualClock(new Date()) });
    await using signer = await startTestSigner({ now: () => a.clock.now() });
    const { paths, offer } = await setUp(a, signer);
    await using b = await spawnFolio(dataDir, { env: { ...ENV, FOLIO_SEED: "0" } });
    // The child is reached with the Host this process's requests carry, so @authority is one.
    using client = Deno.createHttpClient({
      proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(b.port) },
    });
    const url = `http://${HOST}:8080${paths[0]}`;
    const onB = (headers: Record<string, string>) =>
      fetch(url, { headers: { "user-agent": GPTBOT, ...headers }, client });
    const onA = (headers: Record<string, string>) =>
      visit(a, paths[0], { "user-agent": GPTBOT, ...headers });
    const sign = async () => ({
      ...offer,
      ...await signer.sign(url, { headers: offer, cover: ["crawler-exact-price"] }),
    });

    for (const [first, second] of [[onB, onA], [onA, onB]]) {
      const signed = await sign();
      const paid = await first(signed);
      assert.equal(paid.status, 200, await paid.text());
      const replay = await refusal(await second(signed));
      assert.equal(replay.status, 400, replay.text);
      assert.equal(replay.error, "InvalidSignature");
      assert.equal(replay.text, `InvalidSignature: ${REPLAYED}\n`);
    }
    assert.equal(await landingCharges(a), 2);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
