/**
 * Sources and jobs: upload a CSV of article URLs, watch its job, see each URL's result with its
 * reason, and cancel, retry or remove. A running job's page refreshes itself every few seconds.
 */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import type { z } from "zod";
import type {
  jobSchema,
  sourceListSchema,
  sourceUrlListSchema,
} from "../../server/surfaces/manage/openapi_schemas.ts";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, CsrfField, When, type Who } from "./shell.tsx";
import { plural } from "../../server/platform/words.ts";
import { DiscoveryCard, IntervalSelect, SitesCard, SyncButton } from "./sites.tsx";

/** An upload (GET /api/publisher/sources). */
export type SourceView = z.output<typeof sourceListSchema>["sources"][number];

/** A job (GET /api/publisher/jobs). */
export type JobView = z.output<typeof jobSchema>;

/** One URL's result (GET /api/publisher/sources/urls). */
export type UrlView = z.output<typeof sourceUrlListSchema>["urls"][number];

/** The max size of a CSV, for the form's hint. */
export const CSV_LIMIT_TEXT = "20 MB";

/** True while a job still has work ahead. */
export function isActive(job: Pick<JobView, "state">): boolean {
  return job.state === "queued" || job.state === "running";
}

/** GET /publisher/sources. */
export function SourcesPage(props: {
  who: Who;
  sources: SourceView[];
  urlCounts: Record<string, number>;
  jobs: JobView[];
  notice?: string | null;
  problem?: string | null;
  /** The upload's refusal when it is the file's (shown beside it). */
  fieldProblem?: FieldProblem | null;
  /** A site's refusal when it is the address's. */
  siteProblem?: FieldProblem | null;
}) {
  const active = props.jobs.filter(isActive);
  const sites = props.sources.filter((s) => s.kind === "site");
  const uploads = props.sources.filter((s) => s.kind !== "site");
  return (
    <ConsoleShell
      who={props.who}
      section="sources"
      title="Sources & jobs"
      notice={props.notice}
      problem={props.problem}
      refreshSeconds={active.length ? 5 : undefined}
    >
      <SitesCard who={props.who} sites={sites} fieldProblem={props.siteProblem} />
      <section class="card" aria-labelledby="upload-title">
        <h2 id="upload-title">Upload a CSV of article URLs</h2>
        <p class="muted small">
          One URL per row, with an optional title column (up to{" "}
          {CSV_LIMIT_TEXT}). Folio fetches each page politely (it obeys robots.txt), extracts the
          article and starts serving it; the job starts at once.
        </p>
        <form
          method="post"
          action={`/publisher/sources/upload?_csrf=${encodeURIComponent(props.who.csrfToken)}`}
          enctype="multipart/form-data"
        >
          <label for="csv">CSV file</label>
          <input
            {...invalidIf(props.fieldProblem, "file")}
            id="csv"
            name="file"
            type="file"
            accept=".csv,text/csv,text/plain"
            required
          />
          <FieldError problem={props.fieldProblem} name="file" />
          <p>
            <button type="submit">Upload and start</button>
          </p>
        </form>
      </section>
      <section class="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Jobs</h2>
        <form method="post" action="/publisher/jobs" class="row">
          <CsrfField token={props.who.csrfToken} />
          <button type="submit" name="kind" value="sync" class="secondary">
            Re-check every URL now
          </button>
          <span class="muted small">
            A sync fetches your ingested pages again and updates what changed (it also runs daily).
          </span>
        </form>
        {props.jobs.length === 0
          ? <p class="muted">No jobs yet: upload a CSV above and its job appears here.</p>
          : <JobTable jobs={props.jobs} />}
      </section>
      <section class="card" aria-labelledby="sources-title">
        <h2 id="sources-title">Uploads</h2>
        <p class="small">
          URLs by state: {Object.entries(props.urlCounts).map(([state, n]) => (
            <span key={state}>
              <a href={`/publisher/sources/urls?state=${state}`}>{state} {count(n)}</a>
              {" "}
            </span>
          ))}
        </p>
        {uploads.length === 0 ? <p class="muted">No uploads yet.</p> : (
          <Scroll label="Uploads">
            <table>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Uploaded</th>
                  <th scope="col">URLs</th>
                  <th scope="col">Rejected rows</th>
                </tr>
              </thead>
              <tbody>
                {uploads.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <a href={`/publisher/sources/${s.id}`}>{s.originalName ?? s.id}</a>
                    </td>
                    <td>
                      <When iso={s.createdAt} />
                    </td>
                    <td>{count(s.accepted)}</td>
                    <td>{count(s.rejected)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
    </ConsoleShell>
  );
}

function JobTable(props: { jobs: JobView[] }) {
  return (
    <Scroll label="Jobs">
      <table>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {props.jobs.map((j) => (
            <tr key={j.id}>
              <td>
                <a href={`/publisher/jobs/${j.id}`}>{j.kind} {j.id.slice(-6)}</a>
              </td>
              <td>{stateText(j)}</td>
              <td>{progressText(j)}</td>
              <td>
                <When iso={j.startedAt ?? j.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

/** A job's state in words. */
export function stateText(j: JobView): string {
  if (j.state === "finished") return (j.outcome ?? "finished").toLowerCase().replace("_", " ");
  return j.state;
}

/** "12 of 300 done · 3 failed". */
export function progressText(j: JobView): string {
  const done = j.ingested + j.unchanged + j.failed + j.unpublished + (j.cancelled ?? 0);
  const cancelled = j.cancelled ? ` · ${count(j.cancelled)} cancelled` : "";
  return `${count(done)} of ${count(j.discovered)} done · ${count(j.failed)} failed${cancelled}`;
}

/** GET /publisher/jobs/:id. */
export function JobPage(props: {
  who: Who;
  job: JobView;
  failedUrls: UrlView[];
  notice?: string | null;
  problem?: string | null;
}) {
  const j = props.job;
  const done = j.ingested + j.unchanged + j.failed + j.unpublished + (j.cancelled ?? 0);
  const pct = j.discovered ? Math.round((done / j.discovered) * 100) : isActive(j) ? 0 : 100;
  const reasons = Object.entries(j.reasons ?? {}).sort((a, b) => b[1] - a[1]);
  return (
    <ConsoleShell
      who={props.who}
      section="sources"
      title={`Job ${j.id.slice(-6)}: ${stateText(j)}`}
      notice={props.notice}
      problem={props.problem}
      refreshSeconds={isActive(j) ? 3 : undefined}
    >
      <section class="card" aria-labelledby="progress-title">
        <h2 id="progress-title">Progress</h2>
        <div
          class="progress"
          role="progressbar"
          aria-label="Job progress"
          aria-valuenow={pct}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <span style={`width:${pct}%`} />
        </div>
        <p>
          {progressText(j)} · {count(j.ingested)} ingested · {count(j.unchanged)} unchanged
          {j.unpublished ? ` · ${count(j.unpublished)} unpublished (gone)` : ""}
          {isActive(j) ? " · this page refreshes every few seconds" : ""}
        </p>
        {j.reason ? <p class="muted">{j.reason}</p> : null}
        <p class="muted small">
          Queued <When iso={j.createdAt} /> · started <When iso={j.startedAt} /> · finished{" "}
          <When iso={j.finishedAt} />
        </p>
        <div class="row">
          {isActive(j) && (
            <form method="post" action={`/publisher/jobs/${j.id}/cancel`} class="row">
              <CsrfField token={props.who.csrfToken} />
              <label for="cancel-reason" class="small" style="margin:0">Reason (optional)</label>
              <input
                id="cancel-reason"
                name="reason"
                type="text"
                maxLength={500}
                style="width:16rem"
              />
              <button type="submit" class="danger">Cancel job</button>
            </form>
          )}
          {!isActive(j) && j.failed + (j.cancelled ?? 0) > 0 && (
            <form method="post" action={`/publisher/jobs/${j.id}/retry`}>
              <CsrfField token={props.who.csrfToken} />
              <button type="submit">
                Retry {count(j.failed + (j.cancelled ?? 0))} failed or cancelled URLs
              </button>
            </form>
          )}
          {j.sourceId
            ? (
              <a class="button secondary" href={`/publisher/sources/${j.sourceId}`}>
                {j.discovery ? "All URLs of this site" : "All URLs of this upload"}
              </a>
            )
            : null}
        </div>
      </section>
      <DiscoveryCard job={j} />
      {reasons.length > 0 && (
        <section class="card" aria-labelledby="reasons-title">
          <h2 id="reasons-title">Why URLs failed</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col">URLs</th>
              </tr>
            </thead>
            <tbody>
              {reasons.map(([reason, n]) => (
                <tr key={reason}>
                  <td>{reason}</td>
                  <td>{count(n)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {props.failedUrls.length > 0 && (
        <section class="card" aria-labelledby="failed-title">
          <h2 id="failed-title">Failed URLs</h2>
          <UrlTable who={props.who} urls={props.failedUrls} />
        </section>
      )}
    </ConsoleShell>
  );
}

/** URLs with their results; each can be selected and removed. */
export function UrlTable(props: { who: Who; urls: UrlView[]; back?: string }) {
  return (
    <form method="post" action="/publisher/sources/urls/remove">
      <CsrfField token={props.who.csrfToken} />
      {props.back ? <input type="hidden" name="back" value={props.back} /> : null}
      <Scroll label="URLs">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span class="muted small">Remove</span>
              </th>
              <th scope="col">URL</th>
              <th scope="col">State</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {props.urls.map((u, i) => (
              <tr key={u.url}>
                <td>
                  <input
                    type="checkbox"
                    name="urls"
                    value={u.url}
                    id={`url-${i}`}
                    aria-label={`Remove ${u.url}`}
                  />
                </td>
                <td class="small" style="overflow-wrap:anywhere">
                  {u.articleId
                    ? <a href={`/publisher/articles?q=${encodeURIComponent(u.url)}`}>{u.url}</a>
                    : u.url}
                </td>
                <td>{u.state}</td>
                <td class="small">{u.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <p>
        <button type="submit" class="secondary">Remove selected URLs</button>
      </p>
    </form>
  );
}

/** GET /publisher/sources/:id and /publisher/sources/urls: URLs of an upload or in a state. */
export function UrlsPage(props: {
  who: Who;
  title: string;
  source: SourceView | null;
  urls: UrlView[];
  states: string[];
  state: string | null;
  back: string;
  notice?: string | null;
  problem?: string | null;
}) {
  return (
    <ConsoleShell
      who={props.who}
      section="sources"
      title={props.title}
      notice={props.notice}
      problem={props.problem}
    >
      <p class="small">
        <a href="/publisher/sources">All sources and jobs</a> · Show:{" "}
        {[null, ...props.states].map((s) => (
          <span key={s ?? "all"}>
            <a
              href={s
                ? `${props.back}${props.back.includes("?") ? "&" : "?"}state=${s}`
                : props.back}
              aria-current={s === props.state ? "page" : undefined}
            >
              {s ?? "all"}
            </a>
            {" "}
          </span>
        ))}
      </p>
      {props.source?.kind === "site" && (
        <section class="card" aria-labelledby="site-actions">
          <h2 id="site-actions">{props.source.siteUrl}</h2>
          <p class="muted small">
            Added <When iso={props.source.createdAt} />; last synced{" "}
            <When iso={props.source.lastSyncedAt} />.
          </p>
          <form
            method="post"
            action={`/publisher/sources/sites/${props.source.id}/interval`}
            class="row"
          >
            <CsrfField token={props.who.csrfToken} />
            <label for="site-every" style="margin:0">Sync every</label>
            <IntervalSelect id="site-every" value={props.source.syncEveryHours} />
            <button type="submit" class="secondary">Save</button>
          </form>
          <div class="row">
            <SyncButton who={props.who} site={props.source} />
            <form method="post" action={`/publisher/sources/${props.source.id}/remove`}>
              <CsrfField token={props.who.csrfToken} />
              <button type="submit" class="danger">Remove this site</button>
              <span class="muted small">
                {" "}Its sync stops and its URLs leave the list; articles already ingested stay.
              </span>
            </form>
          </div>
        </section>
      )}
      {props.source && props.source.kind !== "site" && (
        <section class="card" aria-labelledby="upload-actions">
          <h2 id="upload-actions">{props.source.originalName ?? props.source.id}</h2>
          <p class="muted small">
            Uploaded <When iso={props.source.createdAt} />:{" "}
            {plural(props.source.accepted, "URL", { shown: count(props.source.accepted) })},{" "}
            {plural(props.source.rejected, "row", { shown: count(props.source.rejected) })}{" "}
            rejected.
          </p>
          <form method="post" action={`/publisher/sources/${props.source.id}/retry`} class="row">
            <CsrfField token={props.who.csrfToken} />
            <button type="submit" class="secondary">Retry its failed and cancelled URLs</button>
          </form>
          <form method="post" action={`/publisher/sources/${props.source.id}/remove`}>
            <CsrfField token={props.who.csrfToken} />
            <button type="submit" class="danger">Cancel and remove this upload</button>
            <span class="muted small">
              {" "}Its job stops and its URLs leave the queue; articles already ingested stay.
            </span>
          </form>
        </section>
      )}
      <section class="card" aria-labelledby="urls-title">
        <h2 id="urls-title">URLs</h2>
        {props.urls.length === 0
          ? <p class="muted">No URLs here.</p>
          : <UrlTable who={props.who} urls={props.urls} back={props.back} />}
      </section>
    </ConsoleShell>
  );
}
