import assert from "node:assert/strict";
import { openStore } from "./db.ts";
import {
  firstUseOfSignature,
  REPLAY_PRUNE_BATCH,
  REPLAY_PRUNE_MARGIN_MS,
} from "./signature_replays.ts";

Deno.test("a backlog of expired rows is pruned a batch per write, never all on one request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-replays-" });
  const s = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  try {
    const t0 = Date.UTC(2026, 10, 15, 12);
    const backlog = 2 * REPLAY_PRUNE_BATCH + 50;
    await s.db.execute({
      sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO signature_replays (replay_key, expires_at) SELECT 'old-' || i, ? FROM n`,
      args: [backlog, t0],
    });
    const count = async () =>
      Number((await s.db.execute("SELECT COUNT(*) AS n FROM signature_replays")).rows[0].n);
    const use = (key: string, now: number) =>
      firstUseOfSignature(s.db, key, { expiresAt: new Date(now + 300_000), now: new Date(now) });

    // Within the margin after expiry nothing goes; then each write takes one batch.
    assert.equal(await use("a", t0 + REPLAY_PRUNE_MARGIN_MS - 1), true);
    assert.equal(await count(), backlog + 1);
    const later = t0 + REPLAY_PRUNE_MARGIN_MS;
    assert.equal(await use("b", later), true);
    assert.equal(await count(), backlog - REPLAY_PRUNE_BATCH + 2);
    assert.equal(await use("c", later), true);
    assert.equal(await use("d", later), true);
    assert.equal(await count(), 4, "the backlog is gone; the live rows stay");
    assert.equal(await use("a", later), false, "a live row is still a replay");
  } finally {
    s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
