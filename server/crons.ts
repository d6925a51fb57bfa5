/**
 * Periodic work (docs/DESIGN.md section 8). Each job is a plain function; main.ts registers them with
 * Deno.cron, and every node runs every cron, so each job takes a lease row (or is idempotent) to
 * make one node do the work.
 */
import { runBillingCron } from "./domain/billing/close.ts";
import { escalateDueDisputes } from "./domain/billing/disputes.ts";
import { runCreditControl } from "./domain/billing/credit_control.ts";
import { receivablesSettings } from "./domain/billing/invoice_terms.ts";
import { dailySync } from "./domain/catalog/jobs.ts";
import { dailyRobotsRefresh } from "./domain/catalog/robots.ts";
import { dailySiteSync } from "./domain/catalog/sites.ts";
import type { AppDeps } from "./deps.ts";
import { withLease } from "../store/leases.ts";
import { PROBE_INTERVAL_MINUTES } from "./domain/status/probes.ts";
import { compactionRange } from "./domain/status/report.ts";
import { compactStatus } from "../store/status.ts";
import { recheckPendingDomains } from "./surfaces/manage/domains.ts";

/** A periodic job: a name, a cron schedule (UTC), and what it does. */
export interface CronJob {
  name: string;
  schedule: string;
  run(): Promise<unknown>;
}

/**
 * The service's periodic jobs for this node (`holder` names the node in lease rows); `probe` runs
 * a probe round against this node's listener.
 */
export function cronJobs(
  deps: AppDeps,
  holder: string,
  probe: () => Promise<unknown>,
): CronJob[] {
  return [
    {
      // One node probes per round (docs/SPEC.md "Limits": every 5 minutes); a round takes seconds.
      name: "folio-probes",
      schedule: `*/${PROBE_INTERVAL_MINUTES} * * * *`,
      run: () =>
        withLease(
          deps.store.db,
          "probes",
          { holder, ttlMs: 4 * 60_000, now: deps.clock.now() },
          probe,
        ),
    },
    {
      // Hourly figures of days before yesterday fold into daily ones, so 90 days stay cheap.
      name: "folio-status-compact",
      schedule: "23 * * * *",
      run: () => {
        const now = deps.clock.now();
        return withLease(
          deps.store.db,
          "status-compact",
          { holder, ttlMs: 10 * 60_000, now },
          () => compactStatus(deps.store.db, compactionRange(now)),
        );
      },
    },
    {
      // Idempotent: bills this month's renewals and closes last month under a lease.
      name: "folio-billing",
      schedule: "7 * * * *",
      run: () =>
        runBillingCron(deps.store.db, {
          holder,
          now: deps.clock.now(),
          receivables: receivablesSettings(deps.config),
        }),
    },
    {
      // Reminders and suspensions for unpaid invoices; each sent once, so hourly is fine.
      name: "folio-credit-control",
      schedule: "12 * * * *",
      run: () =>
        runCreditControl(deps.store.db, {
          holder,
          now: deps.clock.now(),
          settings: receivablesSettings(deps.config),
        }),
    },
    {
      // Undecided disputes past their deadline go to the operator; one conditional UPDATE, so two
      // nodes running it at once escalate (and notify) each dispute once.
      name: "folio-dispute-escalation",
      schedule: "47 * * * *",
      run: () => escalateDueDisputes({ db: deps.store.db, clock: deps.clock, config: deps.config }),
    },
    {
      name: "folio-daily-sync",
      schedule: "17 3 * * *",
      run: () => dailySync(deps, { holder }),
    },
    {
      // Each site is synced once a day (issue 30); hourly runs spread the sites over the day.
      name: "folio-site-sync",
      schedule: "27 * * * *",
      run: () => dailySiteSync(deps, { holder }),
    },
    {
      // robots.txt refetch is daily (docs/SPEC.md "Limits"); failing hosts are retried hourly.
      name: "folio-robots",
      schedule: "37 * * * *",
      run: () => dailyRobotsRefresh(deps, { holder }),
    },
    {
      // A pending domain whose record appeared later verifies without a click ("verify now").
      name: "folio-domain-claims",
      schedule: "47 * * * *",
      run: () => recheckPendingDomains(deps, { holder }),
    },
  ];
}
