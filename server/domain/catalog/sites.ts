/**
 * Onboarding by site (issue 30): a publisher names its site, and each sync (on adding it, daily by
 * the cron, or "sync now") discovers the pages its sitemaps and feeds list (site_discovery.ts),
 * queues the new and changed ones and re-checks those that vanished (store/sites.ts), then fetches
 * them as any job does: conditional requests, and a 404 or 410 unpublishes the page's article.
 */
import { newId } from "../../../store/ids.ts";
import type { Job } from "../../../store/jobs.ts";
import {
  findSiteByUrl,
  getSite,
  insertSite,
  queueSiteSync,
  setSiteInterval,
  sitesDue,
} from "../../../store/sites.ts";
import type { Source } from "../../../store/sources.ts";
import { withLease } from "../../../store/leases.ts";
import type { AppDeps } from "../../deps.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { wakeWorker } from "./jobs.ts";
import { normalizeUrl } from "./sources.ts";

/** The address a site is stored under: http(s), no credentials or fragment; "/" path kept. */
export function siteAddress(raw: string): string {
  const url = normalizeUrl(raw);
  if (!url) {
    throw invalid("url", "must be the http(s) address of the site, e.g. https://example.com/");
  }
  return url;
}

/** Adds a site and queues its first sync; 409 when the publisher already has it. */
export async function addSite(
  deps: AppDeps,
  publisherId: string,
  input: { url: string; syncEveryHours?: number },
): Promise<{ site: Source; job: Job }> {
  const url = siteAddress(input.url);
  const site = await insertSite(deps.store.db, publisherId, {
    id: newId("src"),
    url,
    syncEveryHours: input.syncEveryHours ?? null,
    now: deps.clock.now(),
  });
  if (!site) {
    const had = await findSiteByUrl(deps.store.db, publisherId, url);
    throw new AppError(
      409,
      "site_exists",
      `The site ${url} was already added (${had?.id})`,
      {},
      "url",
    );
  }
  const { job } = await syncSite(deps, publisherId, site.id);
  return { site: (await getSite(deps.store.db, publisherId, site.id))!, job };
}

/** Queues a sync of a site now, or returns the one already queued or running. 404 unknown. */
export async function syncSite(
  deps: AppDeps,
  publisherId: string,
  siteId: string,
): Promise<{ job: Job; created: boolean }> {
  if (!await getSite(deps.store.db, publisherId, siteId)) throw notFound("Site");
  const queued = await queueSiteSync(deps.store.db, publisherId, {
    siteId,
    jobId: newId("job"),
    now: deps.clock.now(),
  });
  wakeWorker(deps);
  return queued;
}

/**
 * The cron's part for sites: queues a sync of every site whose interval (daily unless the
 * publisher set another) has passed. Every node's cron calls it; the lease lets one of them do it.
 * Returns how many it queued.
 */
export async function dailySiteSync(deps: AppDeps, opts: { holder: string }): Promise<number> {
  const now = deps.clock.now();
  const leased = await withLease(deps.store.db, "ingest-site-sync", {
    holder: opts.holder,
    ttlMs: 10 * 60_000,
    now,
  }, async () => {
    let queued = 0;
    // A minute of slack, so a cron firing a little early still finds the last round's syncs due.
    for (const s of await sitesDue(deps.store.db, { now, slackMs: 60_000, limit: 10_000 })) {
      if ((await syncSite(deps, s.publisherId, s.id)).created) queued++;
    }
    return queued;
  });
  return leased.ran ? leased.result : 0;
}

/** Changes how often the cron syncs a site (hours). 404 unknown. */
export async function setSyncInterval(
  deps: AppDeps,
  publisherId: string,
  siteId: string,
  syncEveryHours: number,
): Promise<Source> {
  if (!await setSiteInterval(deps.store.db, publisherId, siteId, syncEveryHours)) {
    throw notFound("Site");
  }
  return (await getSite(deps.store.db, publisherId, siteId))!;
}
