import assert from "node:assert/strict";
import { startTestSigner } from "../../../tests/web_bot_auth_helpers.ts";
import { type Client, openStore } from "../../../store/db.ts";
import { REPLAY_PRUNE_MARGIN_MS } from "../../../store/signature_replays.ts";
import { createFetcher } from "../catalog/fetcher.ts";
import { manualClock } from "../../platform/clock.ts";
import { authenticateWebBotAuth, REPLAYED } from "./signature_replay.ts";

const PAGE = "http://publisher.example/articles/1";

/** A store in a temporary directory, and a second connection to the same file. */
async function stores() {
  const dir = await Deno.makeTempDir({ prefix: "folio-replay-" });
  const url = `file:${dir}/folio.db`;
  const a = await openStore(url, { now: new Date() });
  const b = await openStore(url, { now: new Date() });
  return {
    a,
    b,
    async [Symbol.asyncDispose]() {
      a.close();
      b.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function rows(db: Client) {
  const rs = await db.execute("SELECT COUNT(*) AS n FROM signature_replays");
  return Number(rs.rows[0].n);
}

Deno.test("a signature authenticates one request, on every connection to the store", async () => {
  await using s = await stores();
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const fetcher = createFetcher({ userAgent: "t", allowLoopback: true });
  const on = (db: Client) => ({ fetcher, clock, store: { db } });
  const signed = await signer.sign(PAGE);
  const request = () => new Request(PAGE, { headers: signed });

  assert.equal((await authenticateWebBotAuth(on(s.a.db), request())).kind, "verified");
  for (const db of [s.a.db, s.b.db]) {
    assert.deepEqual(await authenticateWebBotAuth(on(db), request()), {
      kind: "invalid",
      code: "InvalidSignature",
      why: REPLAYED,
    });
  }
  // A fresh signature of the same request (a new nonce) is a new credential.
  assert.equal(
    (await authenticateWebBotAuth(
      on(s.b.db),
      new Request(PAGE, { headers: await signer.sign(PAGE) }),
    ))
      .kind,
    "verified",
  );
  // Concurrent uses of one signature: exactly one wins.
  const again = await signer.sign(PAGE);
  const results = await Promise.all(
    [s.a.db, s.b.db, s.a.db, s.b.db].map((db) =>
      authenticateWebBotAuth(on(db), new Request(PAGE, { headers: again }))
    ),
  );
  assert.equal(results.filter((r) => r.kind === "verified").length, 1);
  // Invalid signatures are never recorded.
  const moved = new Request(`${PAGE}0`, { headers: await signer.sign(PAGE) });
  assert.equal((await authenticateWebBotAuth(on(s.a.db), moved)).kind, "invalid");
  assert.equal(await rows(s.a.db), 3);
});

Deno.test("rows are pruned once their signature has expired (and the margin passed)", async () => {
  await using s = await stores();
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = {
    fetcher: createFetcher({ userAgent: "t", allowLoopback: true }),
    clock,
    store: { db: s.a.db },
  };
  const use = async (headers: Record<string, string>) =>
    (await authenticateWebBotAuth(deps, new Request(PAGE, { headers }))).kind;
  const nonce = btoa(String.fromCharCode(...new Uint8Array(64).fill(7)));
  const first = await signer.sign(PAGE, { nonce }); // expires 5 min after it was made
  assert.equal(await use(first), "verified");
  assert.equal(await use(await signer.sign(PAGE)), "verified");
  assert.equal(await rows(s.a.db), 2);

  // Past expiry the replay is refused as expired; the rows stay through the margin.
  clock.advance(300_000);
  assert.equal(await use(first), "invalid");
  assert.equal(await use(await signer.sign(PAGE)), "verified");
  assert.equal(await rows(s.a.db), 3);
  // The nonce may be used again by a new signature once its first one expired.
  assert.equal(await use(await signer.sign(PAGE, { nonce })), "verified");
  assert.equal(await rows(s.a.db), 3, "the expired row was taken over");

  // A margin after the first two rows expired, the next write prunes the one not taken over.
  clock.advance(REPLAY_PRUNE_MARGIN_MS);
  assert.equal(await use(await signer.sign(PAGE)), "verified");
  assert.equal(await rows(s.a.db), 3);
  clock.advance(300_000 + REPLAY_PRUNE_MARGIN_MS);
  assert.equal(await use(await signer.sign(PAGE)), "verified");
  assert.equal(await rows(s.a.db), 1);
});
