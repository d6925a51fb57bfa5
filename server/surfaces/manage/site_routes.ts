/**
 * Publisher management routes for sites (issue 30): add a site (its first sync starts at once),
 * list them, read one, change how often it is synced, and "sync now". A site is a source, so DELETE /sources/:id removes it and
 * GET /sources/urls?sourceId= reports its URLs.
 */
import { Hono } from "hono";
import { latestJobBySource } from "../../../store/jobs.ts";
import { getSite, listSites } from "../../../store/sites.ts";
import { countUrlsBySource, emptyCounts, type Source } from "../../../store/sources.ts";
import { addSite, setSyncInterval, syncSite } from "../../domain/catalog/sites.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../platform/errors.ts";
import type { ManageEnv } from "./auth.ts";
import { json } from "./body.ts";
import { siteInputSchema, sitePatchSchema } from "./ingest_schemas.ts";
import { presentJob } from "./job_routes.ts";

/** Routes under /sites. */
export function siteRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  const present = async (publisherId: string, sites: Source[]) => {
    const [bySource, jobs] = await Promise.all([
      countUrlsBySource(db, publisherId),
      latestJobBySource(db, publisherId),
    ]);
    return sites.map((s) => ({
      ...s,
      urls: bySource.get(s.id) ?? emptyCounts(),
      jobId: jobs.get(s.id) ?? null,
    }));
  };

  app.post("/sites", json(siteInputSchema), async (c) => {
    const publisherId = c.get("publisher").id;
    const { site, job } = await addSite(deps, publisherId, c.req.valid("json"));
    const [shown] = await present(publisherId, [site]);
    return c.json({ site: shown, jobId: job.id, job: presentJob(job) }, 201);
  });

  app.get("/sites", async (c) => {
    const publisherId = c.get("publisher").id;
    return c.json({ sites: await present(publisherId, await listSites(db, publisherId)) });
  });

  app.get("/sites/:id", async (c) => {
    const publisherId = c.get("publisher").id;
    const site = await getSite(db, publisherId, c.req.param("id"));
    if (!site) throw notFound("Site");
    return c.json((await present(publisherId, [site]))[0]);
  });

  app.patch("/sites/:id", json(sitePatchSchema), async (c) => {
    const publisherId = c.get("publisher").id;
    const { syncEveryHours } = c.req.valid("json");
    const site = await setSyncInterval(deps, publisherId, c.req.param("id"), syncEveryHours);
    return c.json((await present(publisherId, [site]))[0]);
  });

  app.post("/sites/:id/sync", async (c) => {
    const { job, created } = await syncSite(deps, c.get("publisher").id, c.req.param("id"));
    return c.json({ jobId: job.id, job: presentJob(job), created }, 202);
  });
  return app;
}
