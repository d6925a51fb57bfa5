/**
 * Periodic work (docs/DESIGN.md section 8). Each job is a plain function; main.ts registers them with
 * Deno.cron, and every node runs every cron, so each job takes a lease row (or is idempotent) to
 * make one node do the work.
 */
import { runBillingCron } from "./billing/close.ts";
import { dailySync } from "./catalog/jobs.ts";
import { dailyRobotsRefresh } from "./catalog/robots.ts";
import type { AppDeps } from "./deps.ts";

/** A periodic job: a name, a cron schedule (UTC), and what it does. */
export interface CronJob {
  name: string;
  schedule: string;
  run(): Promise<unknown>;
}

/** The service's periodic jobs for this node (`holder` names the node in lease rows). */
export function cronJobs(deps: AppDeps, holder: string): CronJob[] {
  return [
    {
      // Idempotent: bills this month's renewals and closes last month under a lease.
      name: "folio-billing",
      schedule: "7 * * * *",
      run: () => runBillingCron(deps.store.db, { holder, now: deps.clock.now() }),
    },
    {
      name: "folio-daily-sync",
      schedule: "17 3 * * *",
      run: () => dailySync(deps, { holder }),
    },
    {
      // robots.txt refetch is daily (docs/SPEC.md "Limits"); failing hosts are retried hourly.
      name: "folio-robots",
      schedule: "37 * * * *",
      run: () => dailyRobotsRefresh(deps, { holder }),
    },
  ];
}
