/** Publisher management routes for ingestion jobs: start, list, read, cancel, retry. */
import { Hono } from "hono";
import { getJob, type Job, listJobs } from "../../../store/jobs.ts";
import { queueJob } from "../../domain/catalog/jobs.ts";
import { cancelIngestJob, retryJob } from "../../domain/catalog/lifecycle.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { notFound } from "../../platform/errors.ts";
import { cancelInputSchema } from "./ingest_schemas.ts";
import { json } from "./body.ts";
import { jobInputSchema } from "./openapi_schemas.ts";

/** Routes under /jobs. */
export function jobRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.post("/jobs", json(jobInputSchema), async (c) => {
    const { kind } = c.req.valid("json");
    const { job, created } = await queueJob(deps, c.get("publisher").id, kind);
    return c.json({ jobId: job.id, created, job: presentJob(job) }, 202);
  });

  app.get("/jobs", async (c) => {
    const jobs = await listJobs(db, c.get("publisher").id, { limit: 50 });
    return c.json({ jobs: jobs.map(presentJob) });
  });

  app.get("/jobs/:id", async (c) => {
    const job = await getJob(db, c.get("publisher").id, c.req.param("id"));
    if (!job) throw notFound("Job");
    return c.json(presentJob(job));
  });

  // The body is optional; when there is one, it is JSON like every other body here.
  app.post("/jobs/:id/cancel", json(cancelInputSchema, { empty: true }), async (c) => {
    const { reason } = c.req.valid("json");
    const { job, released } = await cancelIngestJob(
      deps,
      c.get("publisher").id,
      c.req.param("id"),
      reason,
    );
    return c.json({ jobId: job.id, job: presentJob(job), released });
  });

  app.post("/jobs/:id/retry", async (c) => {
    const { job, requeued } = await retryJob(deps, c.get("publisher").id, c.req.param("id"));
    return c.json({ jobId: job.id, job: presentJob(job), requeued }, 202);
  });
  return app;
}

/** The API form of a job (docs/DESIGN.md section 6). */
export function presentJob(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    scope: job.scope,
    sourceId: job.sourceId,
    state: job.state,
    outcome: job.outcome,
    discovered: job.discovered,
    ingested: job.ingested,
    unchanged: job.unchanged,
    failed: job.failed,
    cancelled: job.cancelled,
    unpublished: job.unpublished,
    discovery: job.discovery as Record<string, unknown> | null,
    reason: job.reason,
    reasons: job.reasons,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}
