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
  sitesDue,
} from "../../../store/sites.ts";
import type { Source } from "../../../store/sources.ts";
import { withLease } from "../../../store/leases.ts";
import type { AppDeps } from "../../deps.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { wakeWorker } from "./jobs.ts";
import { normalizeUrl } from "./sources.ts";

/** A site is synced again once this long has passed since its last sync was queued. */
export const SITE_SYNC_INTERVAL_MS = 24 * 3600_000;

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
  rawUrl: string,
): Promise<{ site: Source; job: Job }> {
  const url = siteAddress(rawUrl);
  const site = await insertSite(deps.store.db, publisherId, {
    id: newId("src"),
    url,
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
 * The daily cron's part for sites: queues a sync of every site not synced for a day. Every node's
 * cron calls it; the lease lets one of them do it. Returns how many it queued.
 */
export async function dailySiteSync(deps: AppDeps, opts: { holder: string }): Promise<number> {
  const now = deps.clock.now();
  const leased = await withLease(deps.store.db, "ingest-site-sync", {
    holder: opts.holder,
    ttlMs: 10 * 60_000,
    now,
  }, async () => {
    let queued = 0;
    // A minute of slack, so a cron firing a little early still finds yesterday's syncs due.
    const before = new Date(now.getTime() - SITE_SYNC_INTERVAL_MS + 60_000);
    for (const s of await sitesDue(deps.store.db, { before, limit: 10_000 })) {
      if ((await syncSite(deps, s.publisherId, s.id)).created) queued++;
    }
    return queued;
  });
  return leased.ran ? leased.result : 0;
}
