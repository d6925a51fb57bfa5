/**
 * What spending a Web Bot Auth signature costs (store/signature_replays.ts): one write transaction
 * per signed request. Times `firstUseOfSignature()` on an embedded store already holding `live`
 * unexpired rows (a day of signatures), one at a time and 8 at once, and the prune of a batch of
 * expired rows folded into the next write, each against a bare one-row write on the same store
 * (the baseline, measured in the same run). Run: deno run -A scripts/bench_signature_replay.ts [live]
 */
import { openStore } from "../store/db.ts";
import { firstUseOfSignature } from "../store/signature_replays.ts";
import { check, line, tally, TARGETS } from "./targets.ts";

const LIVE = Number(Deno.args[0] ?? 100_000);
const RUNS = 2000;
const dir = await Deno.makeTempDir({ prefix: "folio-bench-replay-" });
const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
const t0 = Date.UTC(2026, 10, 15, 12);
const key = (i: number) => i.toString(16).padStart(64, "0");
const expiresAt = new Date(t0 + 300_000);

try {
  for (let i = 0; i < LIVE; i += 5000) {
    const rows = Array.from({ length: Math.min(5000, LIVE - i) }, (_, j) => `('${key(i + j)}', ?)`);
    await store.db.execute({
      sql: `INSERT INTO signature_replays (replay_key, expires_at) VALUES ${rows.join(",")}`,
      args: rows.map((_, j) => t0 + 60_000 + ((i + j) % 86_400) * 1000),
    });
  }
  const percentile = (xs: number[], p: number) =>
    xs.toSorted((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
  // The baseline: one autocommit INSERT of a row of the same shape.
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const at = performance.now();
    await store.db.execute({
      sql: "INSERT INTO signature_replays (replay_key, expires_at) VALUES (?, ?)",
      args: [`bare-${key(i)}`, t0 + 2 * 86_400_000], // outlives the prune below
    });
    bare.push(performance.now() - at);
  }
  const sequential: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const at = performance.now();
    await firstUseOfSignature(store.db, key(LIVE + i), { expiresAt, now: new Date(t0) });
    sequential.push(performance.now() - at);
  }
  const replayed = await firstUseOfSignature(store.db, key(LIVE), { expiresAt, now: new Date(t0) });
  const started = performance.now();
  for (let i = 0; i < RUNS; i += 8) {
    await Promise.all(
      Array.from(
        { length: 8 },
        (_, j) =>
          firstUseOfSignature(store.db, key(2 * LIVE + i + j), { expiresAt, now: new Date(t0) }),
      ),
    );
  }
  const concurrentMs = (performance.now() - started) / RUNS;
  // The first write after an hour of signatures expired deletes them in its transaction.
  const pruneAt = performance.now();
  await firstUseOfSignature(store.db, "prune", { expiresAt, now: new Date(t0 + 3_600_000) });
  const pruneMs = performance.now() - pruneAt;
  const left = await store.db.execute("SELECT COUNT(*) AS n FROM signature_replays");

  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const [b50, b99] = [percentile(bare, 0.5), percentile(bare, 0.99)];
  const [s50, s99] = [percentile(sequential, 0.5), percentile(sequential, 0.99)];
  const mean = sequential.reduce((a, b) => a + b, 0) / sequential.length;
  const ratio = (x: number, base: number) => Number((x / base).toFixed(2));
  const checks = [
    check("one at a time, p50", ratio(s50, b50), TARGETS.replaySpend),
    check("one at a time, p99", ratio(s99, b99), TARGETS.replaySpend),
    check("8 at once, per signed request", ratio(concurrentMs, mean), TARGETS.replayConcurrent),
    check("replay refused", replayed ? 0 : 1, TARGETS.replayRefused),
    check("first write after an hour", ratio(pruneMs, s50), TARGETS.replayPrune),
  ];
  const shown = [
    `${ms(s50)} = ${checks[0].value}×`,
    `${ms(s99)} = ${checks[1].value}×`,
    `${ms(concurrentMs)} = ${checks[2].value}× the mean of one at a time (${ms(mean)})`,
    String(!replayed),
    `${pruneMs.toFixed(1)} ms = ${checks[4].value}×, pruning to ${left.rows[0].n} rows`,
  ];
  console.log(`signature replay cache, ${LIVE} live rows, embedded store, ${RUNS} runs`);
  console.log(`  baseline, a bare one-row write: p50 ${ms(b50)}, p99 ${ms(b99)}`);
  // Rows outside the target: the store's size after the prune (live rows plus the baselines').
  checks.forEach((c, i) => console.log(`  ${line(c, shown[i])}`));
  console.log(tally(checks));
} finally {
  store.close();
  await Deno.remove(dir, { recursive: true });
}
