/**
 * Publisher management routes for the catalog (docs/DESIGN.md section 6): sources (CSV of URLs),
 * ingestion jobs, books. Auth is attached per route (see account_routes.ts for why).
 */
import { Hono } from "hono";
import { listBooks } from "../../store/books.ts";
import { getJob, type Job, listJobs } from "../../store/jobs.ts";
import {
  countUrlsByState,
  listSources,
  listUrls,
  type SourceUrlState,
} from "../../store/sources.ts";
import { importBook, MAX_PDF_BYTES } from "../catalog/books.ts";
import { queueJob } from "../catalog/jobs.ts";
import { importSourceCsv, MAX_CSV_BYTES } from "../catalog/sources.ts";
import { readUpload, uploadLimit } from "../catalog/upload.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError, invalid, notFound } from "../errors.ts";

const URL_STATES = new Set(["queued", "ingested", "unchanged", "failed", "blocked"]);
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

function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

async function refuseType(req: Request, expected: string): Promise<never> {
  await req.body?.cancel().catch(() => {});
  throw new AppError(415, "unsupported_media_type", `Content-Type must be ${expected}`);
}

/** Routes for sources, jobs, books. */
export function ingestRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;

  app.post("/sources", uploadLimit(MAX_CSV_BYTES), async (c) => {
    if (!CSV_TYPES.has(mediaType(c.req.raw))) {
      await refuseType(c.req.raw, "text/csv or multipart/form-data with a file field");
    }
    const upload = await readUpload(c.req.raw, MAX_CSV_BYTES);
    const result = await importSourceCsv(deps, c.var.publisher!.id, upload);
    return c.json(result, result.duplicate ? 200 : 201);
  });

  app.get("/sources", async (c) => {
    const publisherId = c.var.publisher!.id;
    const [sources, urls] = await Promise.all([
      listSources(db, publisherId),
      countUrlsByState(db, publisherId),
    ]);
    return c.json({ sources, urls });
  });

  app.get("/sources/urls", async (c) => {
    const state = c.req.query("state");
    if (state && !URL_STATES.has(state)) {
      throw invalid("state", "must be one of queued, ingested, unchanged, failed, blocked");
    }
    const urls = await listUrls(db, c.var.publisher!.id, {
      state: state as SourceUrlState | undefined,
      limit: 1000,
    });
    return c.json({ urls });
  });

  app.post("/jobs", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw invalid("body", 'must be JSON: {"kind": "drain"} or {"kind": "sync"}');
    }
    const kind = (body as { kind?: unknown } | null)?.kind;
    if (kind !== "drain" && kind !== "sync") throw invalid("kind", "must be drain or sync");
    const { job, created } = await queueJob(deps, c.var.publisher!.id, kind);
    return c.json({ jobId: job.id, created, job: presentJob(job) }, 202);
  });

  app.get("/jobs", async (c) => {
    const jobs = await listJobs(db, c.var.publisher!.id, { limit: 50 });
    return c.json({ jobs: jobs.map(presentJob) });
  });

  app.get("/jobs/:id", async (c) => {
    const job = await getJob(db, c.var.publisher!.id, c.req.param("id"));
    if (!job) throw notFound("Job");
    return c.json(presentJob(job));
  });

  app.post("/books", uploadLimit(MAX_PDF_BYTES), async (c) => {
    if (mediaType(c.req.raw) !== "multipart/form-data") {
      await refuseType(c.req.raw, "multipart/form-data with file, title, author and rights fields");
    }
    const upload = await readUpload(c.req.raw, MAX_PDF_BYTES);
    const book = await importBook(deps, c.var.publisher!.id, upload);
    return c.json(book, 201);
  });

  app.get("/books", async (c) => {
    return c.json({ books: await listBooks(db, c.var.publisher!.id) });
  });

  return app;
}

/** The API form of a job (docs/DESIGN.md section 6). */
export function presentJob(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    outcome: job.outcome,
    discovered: job.discovered,
    ingested: job.ingested,
    unchanged: job.unchanged,
    failed: job.failed,
    reason: job.reason,
    reasons: job.reasons,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}
