/**
 * Payout figures (issue 38 part 5): the time to compute every payout due (collected basis, holds:
 * `payoutsDue`, what the operator's payout list and a batch approval run) on a ledger of N charges,
 * as a ratio to the month close's own payout sum over the same rows (one grouped scan), measured
 * in the same run. Target: at most 5×. Run: deno run -A scripts/bench_payouts.ts [charges]
 */
import { closeMonth } from "../server/domain/billing/close.ts";
import { payoutsDue } from "../server/domain/billing/payouts_due.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { createPublisherAccount } from "../server/surfaces/manage/accounts.ts";
import { testFolio } from "../tests/helpers.ts";
import { check, line, tally, TARGETS } from "./targets.ts";

const CHARGES = Number(Deno.args[0] ?? 100_000);
const PUBLISHERS = 20;
const BUYERS = 500;
const RUNS = 7;

await using folio = await testFolio({ checkDocumented: false });
const db = folio.store.db;
const pubs: string[] = [];
for (let i = 0; i < PUBLISHERS; i++) {
  const made = await createPublisherAccount(db, { name: `Bench ${i}`, slug: `bench-${i}` }, {
    now: folio.clock.now(),
  });
  pubs.push(made.publisher.id);
}
const buyers: string[] = [];
for (let i = 0; i < BUYERS; i++) {
  buyers.push(
    (await createBuyer(db, { name: `B${i}`, email: `b${i}@bench.test` }, {
      now: folio.clock.now(),
    })).buyerId,
  );
}
const at = folio.clock.now().getTime();
for (let done = 0; done < CHARGES; done += 1000) {
  await db.batch(
    Array.from({ length: Math.min(1000, CHARGES - done) }, (_, k) => {
      const n = done + k;
      return {
        sql:
          `INSERT INTO charges (id, buyer_id, publisher_id, kind, price_micros, fee_micros, month,
              statement_month, identity, surface, created_at)
            VALUES (?, ?, ?, 'metered', ?, ?, '2026-11', '2026-11', 'key', 'rest', ?)`,
        args: [
          `chg_bench_${n}`,
          buyers[n % BUYERS],
          pubs[n % PUBLISHERS],
          5_000 + (n % 7),
          n % 3,
          at,
        ],
      };
    }),
    "write",
  );
}
folio.clock.set(new Date("2026-12-01T01:00:00Z"));
await closeMonth(db, { month: "2026-11", now: folio.clock.now() });

const median = async (fn: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
};
const baseline = await median(() =>
  db.execute({
    sql: `SELECT publisher_id, SUM(price_micros) FROM charges WHERE statement_month = ?
          GROUP BY publisher_id`,
    args: ["2026-11"],
  })
);
const due = await median(() => payoutsDue(db, "2026-11"));
const ratio = check(
  "payoutsDue (every payout, collected basis, holds)",
  Number((due / baseline).toFixed(2)),
  TARGETS.payoutsDue,
);
console.log(`charges ${CHARGES}, publishers ${PUBLISHERS + 1}, buyers ${BUYERS + 1}`);
console.log(`baseline (month close's payout sum): ${baseline.toFixed(1)} ms`);
console.log(line(ratio, `${due.toFixed(1)} ms = ${ratio.value}× the baseline`));
console.log(tally([ratio]));
