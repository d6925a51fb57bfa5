/**
 * Publisher management routes for the catalog (docs/DESIGN.md section 6): sources (CSV of URLs)
 * and their per-URL report, removal and retry; jobs (job_routes.ts), sites (site_routes.ts) and
 * books (book_routes.ts) are mounted here too. Auth is attached for the whole sub-app by routes.ts.
 */
import { Hono } from "hono";
import { latestJobBySource } from "../../../store/jobs.ts";
import {
  countUrlsBySource,
  countUrlsByState,
  emptyCounts,
  listSources,
  listUrls,
  type SourceUrl,
} from "../../../store/sources.ts";
import { removeListedUrls, removeUpload, retrySource } from "../../domain/catalog/lifecycle.ts";
import { importSourceCsv, MAX_CSV_BYTES } from "../../domain/catalog/sources.ts";
import { mediaType, readUpload, refuseType, uploadLimit } from "../../domain/catalog/upload.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { bookRoutes } from "./book_routes.ts";
import { siteRoutes } from "./site_routes.ts";
import { removeUrlsInputSchema, urlQuerySchema } from "./ingest_schemas.ts";
import { jobRoutes, presentJob } from "./job_routes.ts";
import { json } from "./body.ts";
import { parseInput } from "../../platform/validate.ts";

/** Media types a CSV upload may carry (browsers label .csv files in several ways). */
const CSV_TYPES = new Set([
  "",
  "text/csv",
  "text/plain",
  "application/csv",
  "application/vnd.ms-excel",
  "application/octet-stream",
  "multipart/form-data",
]);

/** Routes for sources, jobs, books. */
export function ingestRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.post("/sources", uploadLimit(MAX_CSV_BYTES), async (c) => {
    if (!CSV_TYPES.has(mediaType(c.req.raw))) {
      await refuseType(c.req.raw, "text/csv or multipart/form-data with a file field");
    }
    const upload = await readUpload(c.req.raw, MAX_CSV_BYTES);
    const { job, ...result } = await importSourceCsv(deps, c.get("publisher").id, upload);
    const body = { ...result, jobId: job?.id ?? null, job: job ? presentJob(job) : null };
    return c.json(body, result.duplicate ? 200 : 201);
  });

  app.get("/sources", async (c) => {
    const publisherId = c.get("publisher").id;
    const [sources, urls, bySource, jobs] = await Promise.all([
      listSources(db, publisherId),
      countUrlsByState(db, publisherId),
      countUrlsBySource(db, publisherId),
      latestJobBySource(db, publisherId),
    ]);
    return c.json({
      sources: sources.map((s) => ({
        ...s,
        urls: bySource.get(s.id) ?? emptyCounts(),
        jobId: jobs.get(s.id) ?? null,
      })),
      urls,
    });
  });

  app.get("/sources/urls", async (c) => {
    const query = parseInput(urlQuerySchema, c.req.query());
    const urls = await listUrls(db, c.get("publisher").id, { ...query, limit: 1000 });
    return c.json({ urls: urls.map(presentUrl) });
  });

  app.post("/sources/urls/remove", json(removeUrlsInputSchema), async (c) => {
    const { urls } = c.req.valid("json");
    return c.json(await removeListedUrls(deps, c.get("publisher").id, urls));
  });

  app.delete("/sources/:id", async (c) => {
    return c.json(await removeUpload(deps, c.get("publisher").id, c.req.param("id")));
  });

  app.post("/sources/:id/retry", async (c) => {
    const { job, requeued } = await retrySource(deps, c.get("publisher").id, c.req.param("id"));
    return c.json({ jobId: job.id, job: presentJob(job), requeued }, 202);
  });

  app.route("/", jobRoutes(deps));
  app.route("/", siteRoutes(deps));
  app.route("/", bookRoutes(deps));
  return app;
}

/** A URL row of the report: the stored fields, plus the last attempt as an ISO time. */
function presentUrl(u: SourceUrl) {
  return { ...u, lastAttemptAt: u.fetchedAt === null ? null : new Date(u.fetchedAt).toISOString() };
}
