/**
 * The discovery step of a site's sync (issue 30), run by the job (run_job.ts) before it fetches
 * pages: what site_discovery.ts finds is queued as the job's work by store/sites.ts as it is found.
 */
import type { Job } from "../../../store/jobs.ts";
import { finishDiscovery, getSite, queueListed, recordDiscovery } from "../../../store/sites.ts";
import type { AppDeps } from "../../deps.ts";
import { plural } from "../../platform/words.ts";
import { discoverSite, type DiscoveryLimits, SiteUnreachable } from "./site_discovery.ts";

/** Bounds of discovery for this deps (tests lower them); production uses the defaults. */
export const discoveryLimits = new WeakMap<AppDeps, Partial<DiscoveryLimits>>();

/**
 * The discovery step of a site's sync, run by the job before it fetches pages: finds the pages,
 * queues the job's work and records what it found on the job. Returns a reason to fail the job
 * when the site could not be read at all or lists nothing we could read.
 */
export async function discoverForJob(
  deps: AppDeps,
  job: Job,
  opts: { signal?: AbortSignal; onDocument?: () => unknown },
): Promise<{ failed: string | null }> {
  const site = job.sourceId ? await getSite(deps.store.db, job.publisherId, job.sourceId) : null;
  if (!site?.siteUrl) {
    await recordDiscovery(deps.store.db, job.publisherId, { jobId: job.id, discovery: {} });
    return { failed: "The site was removed" };
  }
  let found;
  try {
    found = await discoverSite(deps, job.publisherId, site.siteUrl, {
      onPages: (pages) =>
        queueListed(deps.store.db, job.publisherId, {
          jobId: job.id,
          siteId: site.id,
          pages,
          now: deps.clock.now(),
        }),
      signal: opts.signal,
      limits: discoveryLimits.get(deps),
      onDocument: opts.onDocument,
    });
  } catch (e) {
    if (!(e instanceof SiteUnreachable)) throw e;
    const reason = `The site could not be reached: ${e.message}`;
    await recordDiscovery(deps.store.db, job.publisherId, {
      jobId: job.id,
      discovery: { documents: [], pages: 0, offSite: 0, problems: [reason] },
    });
    return { failed: reason };
  }
  if (opts.signal?.aborted) return { failed: null };
  const discovery = {
    documents: found.documents.slice(0, 200),
    pages: found.pages,
    offSite: found.offSite,
    problems: found.problems.slice(0, 50),
  };
  await finishDiscovery(deps.store.db, job.publisherId, {
    jobId: job.id,
    siteId: site.id,
    discovery,
  });
  const readable = found.documents.some((d) => d.kind !== "page" && d.kind !== "unknown");
  if (!readable && found.pages === 0) {
    const why = found.problems[0] ?? "no sitemap at /sitemap.xml and no feed linked";
    return { failed: `No sitemap or feed could be read (${why})` };
  }
  return { failed: null };
}

/** The sentence a site sync adds to its job's reason when discovery met problems. */
export function discoveryNote(discovery: unknown): string | null {
  const problems = (discovery as { problems?: string[] } | null)?.problems ?? [];
  if (!problems.length) return null;
  return `${plural(problems.length, "discovery problem")}: ${problems[0]}`;
}
