/**
 * /publisher/sources and /publisher/jobs: uploads, jobs and URL results over the ingestion API.
 * The CSV form is multipart, so its CSRF token rides in the action's query string and the body
 * streams to POST /api/publisher/sources untouched (the API enforces the size limit as it reads).
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { renderPage } from "../../../ui/layout.tsx";
import { JobPage, SourcesPage, UrlsPage } from "../../../ui/console/sources.tsx";
import { AppError } from "../../platform/errors.ts";
import {
  retryResponseSchema,
  siteAddedSchema,
  siteSyncSchema,
} from "../../surfaces/manage/ingest_schemas.ts";
import { URL_STATES } from "../../../store/sources.ts";
import {
  jobListSchema,
  jobQueuedSchema,
  jobSchema,
  sourceListSchema,
  sourceResponseSchema,
  sourceUrlListSchema,
} from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  doneRedirect,
  field,
  formLimit,
  noticeOf,
  optional,
  readForm,
  send,
} from "../kit/forms.ts";
import { must, refusalStatus, segment } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { type FieldMap, type FormProblem, formProblem } from "../kit/field_errors.ts";

const NOTICES: Record<string, string> = {
  uploaded: "Upload received; its job has started.",
  duplicate: "This file was uploaded before; nothing new was queued.",
  nothing:
    "No new URLs in this file: rows that are not URLs are skipped, and known URLs are not queued again.",
  cancelled: "The job was cancelled; its queued URLs were released.",
  retried: "The failed URLs were queued again.",
  removed: "Removed.",
  queued: "Job queued.",
  "site-added": "Site added; its first sync has started.",
  "sync-queued": "Sync queued.",
  interval: "Saved: the site is synced at its new interval.",
};

const STATES = [...URL_STATES];

/** The CSV upload's one field. */
const FIELDS: FieldMap = { file: { name: "file", label: "CSV file" } };
/** The site form's one field. */
const SITE_FIELDS: FieldMap = {
  url: { name: "url", label: "Site address" },
  syncEveryHours: { name: "syncEveryHours", label: "Sync every" },
};

/** The sources and jobs pages. */
export function sourcesPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();

  const overview = async (
    c: Context<ConsoleEnv>,
    problem: string | FormProblem | null,
    status: ContentfulStatusCode = 200,
    of: "file" | "site" = "file",
  ) => {
    const { top, field } = typeof problem === "object" && problem !== null
      ? problem
      : { top: problem, field: null };
    const [list, jobs] = await Promise.all([
      callApi(c, api, "/api/publisher/sources", sourceListSchema).then(must),
      callApi(c, api, "/api/publisher/jobs", jobListSchema).then(must),
    ]);
    return c.html(
      renderPage(SourcesPage({
        who: c.get("who"),
        sources: list.sources,
        urlCounts: list.urls,
        jobs: jobs.jobs,
        notice: noticeOf(c, NOTICES),
        problem: top,
        fieldProblem: of === "file" ? field : null,
        siteProblem: of === "site" ? field : null,
      })),
      status,
    );
  };

  app.get("/sources", (c) => overview(c, null));

  app.post("/sources/upload", async (c) => {
    const answer = await callApi(
      c,
      api,
      "/api/publisher/sources",
      sourceResponseSchema,
      {
        method: "POST",
        body: c.req.raw.body,
        contentType: c.req.header("content-type") ?? "",
        csrf: c.req.query("_csrf") ?? "",
      },
    );
    if (!answer.ok) {
      return overview(c, formProblem(answer, FIELDS), refusalStatus(answer.status));
    }
    if (answer.body.duplicate) return doneRedirect(c, "/publisher/sources", "duplicate");
    return answer.body.jobId
      ? doneRedirect(c, `/publisher/jobs/${segment(answer.body.jobId)}`, "uploaded")
      : doneRedirect(c, "/publisher/sources", "nothing");
  });

  app.post("/sources/sites", formLimit, async (c) => {
    const f = await readForm(c);
    const every = Number(field(f, "syncEveryHours") || "24");
    const added = await send(c, api, f, "/api/publisher/sites", {
      method: "POST",
      json: { url: field(f, "url"), syncEveryHours: every },
    }, siteAddedSchema);
    if (!added.ok) {
      return overview(c, formProblem(added, SITE_FIELDS), refusalStatus(added.status), "site");
    }
    return doneRedirect(c, `/publisher/jobs/${segment(added.body.jobId)}`, "site-added");
  });

  app.post("/sources/sites/:id/interval", formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const changed = await send(c, api, f, `/api/publisher/sites/${id}`, {
      method: "PATCH",
      json: { syncEveryHours: Number(field(f, "syncEveryHours")) },
    });
    if (!changed.ok) return overview(c, changed.problem, refusalStatus(changed.status));
    return doneRedirect(c, `/publisher/sources/${id}`, "interval");
  });

  app.post("/sources/sites/:id/sync", formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const queued = await send(c, api, f, `/api/publisher/sites/${id}/sync`, {
      method: "POST",
    }, siteSyncSchema);
    if (!queued.ok) return overview(c, queued.problem, refusalStatus(queued.status));
    return doneRedirect(c, `/publisher/jobs/${segment(queued.body.jobId)}`, "sync-queued");
  });

  app.get("/sources/urls", async (c) => {
    const state = c.req.query("state") ?? null;
    const query = state ? `?state=${encodeURIComponent(state)}` : "";
    const urls = must(
      await callApi(c, api, `/api/publisher/sources/urls${query}`, sourceUrlListSchema),
    );
    return c.html(renderPage(UrlsPage({
      who: c.get("who"),
      title: state ? `URLs: ${state}` : "All URLs",
      source: null,
      urls: urls.urls,
      states: STATES,
      state,
      back: "/publisher/sources/urls",
      notice: noticeOf(c, NOTICES),
    })));
  });

  app.post("/sources/urls/remove", formLimit, async (c) => {
    const f = await readForm(c);
    const urls = [f.urls ?? []].flat();
    const back = /^\/publisher\/(sources|jobs)\/[A-Za-z0-9_/]*$/.test(field(f, "back"))
      ? field(f, "back")
      : "/publisher/sources";
    if (urls.length === 0) return doneRedirect(c, back, "removed");
    const removed = await send(c, api, f, "/api/publisher/sources/urls/remove", {
      method: "POST",
      json: { urls },
    });
    if (!removed.ok) return overview(c, removed.problem, refusalStatus(removed.status));
    return doneRedirect(c, back, "removed");
  });

  app.get("/sources/:id", async (c) => {
    const id = c.req.param("id");
    const list = must(await callApi(c, api, "/api/publisher/sources", sourceListSchema));
    const source = list.sources.find((s) => s.id === id);
    if (!source) throw new AppError(404, "not_found", "Upload was not found");
    const state = c.req.query("state") ?? null;
    const query = `sourceId=${segment(id)}${state ? `&state=${encodeURIComponent(state)}` : ""}`;
    const urls = must(
      await callApi(c, api, `/api/publisher/sources/urls?${query}`, sourceUrlListSchema),
    );
    return c.html(renderPage(UrlsPage({
      who: c.get("who"),
      title: source.kind === "site"
        ? `Site: ${source.siteUrl}`
        : `Upload: ${source.originalName ?? source.id}`,
      source,
      urls: urls.urls,
      states: STATES,
      state,
      back: `/publisher/sources/${id}`,
      notice: noticeOf(c, NOTICES),
    })));
  });

  app.post("/sources/:id/remove", formLimit, async (c) => {
    const f = await readForm(c);
    const removed = await send(c, api, f, `/api/publisher/sources/${segment(c.req.param("id"))}`, {
      method: "DELETE",
    });
    if (!removed.ok) return overview(c, removed.problem, refusalStatus(removed.status));
    return doneRedirect(c, "/publisher/sources", "removed");
  });

  const jobPage = async (
    c: Context<ConsoleEnv>,
    problem: string | null,
    status: ContentfulStatusCode = 200,
  ) => {
    const id = segment(c.req.param("id")!);
    const job = must(await callApi(c, api, `/api/publisher/jobs/${id}`, jobSchema));
    const failed = job.failed > 0
      ? must(
        await callApi(
          c,
          api,
          `/api/publisher/sources/urls?state=failed&jobId=${id}`,
          sourceUrlListSchema,
        ),
      ).urls
      : [];
    return c.html(
      renderPage(
        JobPage({
          who: c.get("who"),
          job,
          failedUrls: failed,
          notice: noticeOf(c, NOTICES),
          problem,
        }),
      ),
      status,
    );
  };

  app.get("/jobs/:id", (c) => jobPage(c, null));

  app.post("/jobs", formLimit, async (c) => {
    const f = await readForm(c);
    const queued = await send(c, api, f, "/api/publisher/jobs", {
      method: "POST",
      json: { kind: field(f, "kind") },
    }, jobQueuedSchema);
    if (!queued.ok) return overview(c, queued.problem, refusalStatus(queued.status));
    return doneRedirect(c, `/publisher/jobs/${segment(queued.body.jobId)}`, "queued");
  });

  app.post("/sources/:id/retry", formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const retried = await send(c, api, f, `/api/publisher/sources/${id}/retry`, {
      method: "POST",
    }, retryResponseSchema);
    if (!retried.ok) return overview(c, retried.problem, refusalStatus(retried.status));
    return doneRedirect(c, `/publisher/jobs/${segment(retried.body.jobId)}`, "retried");
  });

  app.post("/jobs/:id/cancel", formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const reason = optional(f, "reason");
    const cancelled = await send(c, api, f, `/api/publisher/jobs/${id}/cancel`, {
      method: "POST",
      json: reason ? { reason } : {},
    });
    if (!cancelled.ok) {
      return jobPage(
        c,
        cancelled.problem,
        refusalStatus(cancelled.status),
      );
    }
    return doneRedirect(c, `/publisher/jobs/${id}`, "cancelled");
  });

  app.post("/jobs/:id/retry", formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const retried = await send(c, api, f, `/api/publisher/jobs/${id}/retry`, {
      method: "POST",
      json: {},
    }, retryResponseSchema);
    if (!retried.ok) {
      return jobPage(
        c,
        retried.problem,
        refusalStatus(retried.status),
      );
    }
    return doneRedirect(c, `/publisher/jobs/${segment(retried.body.jobId)}`, "retried");
  });
  return app;
}
