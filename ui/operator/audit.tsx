/**
 * The audit log page (/operator/audit): every recorded action, newest first, filtered by actor,
 * action, subject and date (a GET form, no JavaScript needed), paged by the API's cursor, with
 * each entry's before and after shown as the fields that changed; and the CSV of the same filters.
 */
import { Fragment } from "preact";
import type { z } from "zod";
import type { auditEntrySchema } from "../../server/surfaces/operator/schemas.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { When, when } from "../console/shell.tsx";
import { Scroll } from "../console/scroll.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

/** One entry of GET /api/operator/audit. */
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** The filters, as the form sent them. */
export type AuditFilters = Partial<
  Record<"actorKind" | "actorId" | "action" | "subjectKind" | "subjectId" | "from" | "to", string>
>;

/** The query string of `filters` plus `extra`. */
export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

const ACTOR_WORDS: Record<AuditEntry["actor"]["kind"], string> = {
  operator: "Operator",
  publisher: "Publisher",
  buyer: "Buyer",
  system: "Folio itself",
  stripe: "Stripe",
};

/** What the page shows. */
export interface AuditPageProps {
  who: OperatorWho;
  entries: AuditEntry[];
  nextCursor: string | null;
  paged: boolean;
  filters: AuditFilters;
  problem?: string | null;
  fieldProblem?: FieldProblem | null;
}

/** GET /operator/audit. */
export function AuditPage(props: AuditPageProps) {
  const filtered = Object.keys(props.filters).length > 0;
  return (
    <OperatorShell who={props.who} section="audit" title="Audit log" problem={props.problem}>
      <p class="muted">
        Who did what, and when: every operator action and every action of anyone that moves money,
        with the state before and after. Entries are never changed or removed.
      </p>
      <AuditFilterForm filters={props.filters} problem={props.fieldProblem} />
      <section class="card" aria-labelledby="entries-title">
        <h2 id="entries-title">{filtered ? "Matching entries" : "Entries"}</h2>
        {props.entries.length === 0
          ? (
            <p>
              {filtered
                ? "No entries match these filters. Widen the dates or clear a filter."
                : "Nothing has been recorded yet."}
            </p>
          )
          : <AuditTable entries={props.entries} filters={props.filters} />}
        {props.nextCursor || props.paged
          ? (
            <nav class="pager" aria-label="Pages of the audit log">
              {props.paged
                ? <a href={`/operator/audit${auditQuery(props.filters)}`}>Newest entries</a>
                : null}
              {props.nextCursor
                ? (
                  <a
                    href={`/operator/audit${
                      auditQuery(props.filters, { cursor: props.nextCursor })
                    }`}
                  >
                    Older entries
                  </a>
                )
                : null}
            </nav>
          )
          : null}
      </section>
    </OperatorShell>
  );
}

function AuditFilterForm(props: { filters: AuditFilters; problem?: FieldProblem | null }) {
  const f = props.filters;
  const p = props.problem;
  const text = (name: keyof AuditFilters, label: string, hint?: string) => (
    <div>
      <label for={name}>{label}</label>
      {hint ? <p class="hint" id={`${name}-hint`}>{hint}</p> : null}
      <input
        type="text"
        id={name}
        name={name}
        value={f[name] ?? ""}
        {...invalidIf(p, name, hint ? `${name}-hint` : undefined)}
      />
      <FieldError problem={p} name={name} />
    </div>
  );
  return (
    <form
      method="get"
      action="/operator/audit"
      class="card filter-grid"
      aria-label="Filter the audit log"
    >
      <div>
        <label for="actorKind">Who</label>
        <select id="actorKind" name="actorKind" {...invalidIf(p, "actorKind")}>
          <option value="" selected={!f.actorKind}>Anyone</option>
          {Object.entries(ACTOR_WORDS).map(([k, label]) => (
            <option key={k} value={k} selected={f.actorKind === k}>{label}</option>
          ))}
        </select>
        <FieldError problem={p} name="actorKind" />
      </div>
      {text("actorId", "Their id")}
      {text("action", "Action", "Exact, or a prefix such as invoice.")}
      {text("subjectKind", "Subject kind", "invoice, payout, operator…")}
      {text("subjectId", "Subject id")}
      <div>
        <label for="from">From</label>
        <input type="date" id="from" name="from" value={f.from ?? ""} {...invalidIf(p, "from")} />
        <FieldError problem={p} name="from" />
      </div>
      <div>
        <label for="to">To</label>
        <input type="date" id="to" name="to" value={f.to ?? ""} {...invalidIf(p, "to")} />
        <FieldError problem={p} name="to" />
      </div>
      <div class="row actions">
        <button type="submit">Filter</button>
        {Object.keys(f).length ? <a href="/operator/audit">Clear filters</a> : null}
        <a class="button secondary" href={`/operator/audit.csv${auditQuery(f)}`} download>
          Download CSV
        </a>
      </div>
    </form>
  );
}

/** Entries as a table (the desk shows the latest few the same way). */
export function AuditTable(props: { entries: AuditEntry[]; filters?: AuditFilters }) {
  const f = props.filters ?? {};
  return (
    <Scroll label="Audit entries">
      <table class="audit">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">On</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((e) => (
            <tr key={e.seq}>
              <td class="nowrap">
                <When iso={e.at} />
              </td>
              <td>
                {ACTOR_WORDS[e.actor.kind]}
                <br />
                <a
                  class="small"
                  href={`/operator/audit${
                    auditQuery({ ...f, actorKind: e.actor.kind, actorId: e.actor.id })
                  }`}
                >
                  <code>{e.actor.id}</code>
                </a>
              </td>
              <td>
                <a href={`/operator/audit${auditQuery({ ...f, action: e.action })}`}>
                  <code>{e.action}</code>
                </a>
                {e.reason ? <p class="small">Reason: {e.reason}</p> : null}
              </td>
              <td>
                {e.subject.kind}
                <br />
                <a
                  class="small"
                  href={`/operator/audit${
                    auditQuery({ ...f, subjectKind: e.subject.kind, subjectId: e.subject.id })
                  }`}
                >
                  <code>{e.subject.id}</code>
                </a>
              </td>
              <td>
                <Change before={e.before} after={e.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

/** Before and after as the fields that differ (`field: old → new`), or the whole value. */
export function Change(props: { before: unknown; after: unknown }) {
  const rows = changes(props.before, props.after);
  if (rows.length === 0) return <span class="muted">—</span>;
  return (
    <dl class="facts small">
      {rows.map(([field, from, to]) => (
        <Fragment key={field}>
          <dt>{field}</dt>
          <dd>
            {from === null ? null : (
              <>
                <del>{from}</del> →{" "}
              </>
            )}
            {to === null ? <span class="muted">(none)</span> : <ins>{to}</ins>}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

type Row = [field: string, before: string | null, after: string | null];

/** The fields that differ between two JSON values, one level deep. */
export function changes(before: unknown, after: unknown): Row[] {
  const obj = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!obj(before) && !obj(after)) {
    if (before === null && after === null) return [];
    return [[
      "value",
      before === null ? null : shown(before),
      after === null ? null : shown(after),
    ]];
  }
  const b = (obj(before) ? before : {}) as Record<string, unknown>;
  const a = (obj(after) ? after : {}) as Record<string, unknown>;
  const rows: Row[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const from = key in b ? shown(b[key]) : null;
    const to = key in a ? shown(a[key]) : null;
    if (from !== to) rows.push([key, obj(before) ? from : null, to]);
  }
  return rows;
}

/** A value as a person reads it: times as the console shows them, nothing as "(none)". */
function shown(v: unknown): string {
  if (v === null || v === undefined) return "(none)";
  if (typeof v === "string") return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) ? when(v) : v;
  return JSON.stringify(v);
}
