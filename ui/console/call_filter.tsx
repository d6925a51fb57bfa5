/**
 * The calls page's filters: a GET form (no JavaScript needed) over the API's query parameters,
 * each refused value shown beside its field, and the CSV download of the same filters.
 */
import { surfaceInWords } from "../../server/platform/words.ts";
import { FieldError, invalidIf } from "../field_error.tsx";
import type { CallsProps } from "./calls.tsx";

/** The filters of the page, as the form sent them (absent: not filtered). */
export type CallFilters = Partial<
  Record<"from" | "to" | "surface" | "outcome" | "agent" | "article" | "only" | "status", string>
>;

/** The query string of `filters` plus `extra`. */
export function queryOf(filters: CallFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

const OUTCOME_NAMES: Record<string, string> = {
  ok: "Succeeded",
  priced: "Priced (402 quote)",
  refused: "Refused (401, 403, 429, 451)",
  not_found: "Not found (404)",
  failed: "Failed",
};

/** The filter form. */
export function CallFilterForm(props: CallsProps) {
  const f = props.filters;
  const problem = props.fieldProblem;
  const agents = props.agents.some((a) => a.key === f.agent) || !f.agent
    ? props.agents
    : [...props.agents, { key: f.agent, name: f.agent, kind: "anonymous" as const }];
  return (
    <form method="get" action="/publisher/calls" class="card filter-grid" aria-label="Filter calls">
      <div>
        <label for="from">From</label>
        <input
          type="date"
          id="from"
          name="from"
          value={f.from ?? ""}
          {...invalidIf(problem, "from")}
        />
        <FieldError problem={problem} name="from" />
      </div>
      <div>
        <label for="to">To</label>
        <input type="date" id="to" name="to" value={f.to ?? ""} {...invalidIf(problem, "to")} />
        <FieldError problem={problem} name="to" />
      </div>
      <div>
        <label for="surface">Surface</label>
        <select id="surface" name="surface" {...invalidIf(problem, "surface")}>
          <option value="" selected={!f.surface}>All surfaces</option>
          {props.surfaces.map((s) => (
            <option key={s} value={s} selected={f.surface === s}>{surfaceInWords(s)}</option>
          ))}
        </select>
        <FieldError problem={problem} name="surface" />
      </div>
      <div>
        <label for="outcome">Outcome</label>
        <select id="outcome" name="outcome" {...invalidIf(problem, "outcome")}>
          <option value="" selected={!f.outcome}>Any outcome</option>
          {props.outcomes.map((o) => (
            <option key={o} value={o} selected={f.outcome === o}>{OUTCOME_NAMES[o] ?? o}</option>
          ))}
        </select>
        <FieldError problem={problem} name="outcome" />
      </div>
      <div>
        <label for="agent">Caller</label>
        <select id="agent" name="agent" {...invalidIf(problem, "agent")}>
          <option value="" selected={!f.agent}>Every caller</option>
          {agents.map((a) => (
            <option key={a.key} value={a.key} selected={f.agent === a.key}>{a.name}</option>
          ))}
        </select>
        <FieldError problem={problem} name="agent" />
      </div>
      <div>
        <label for="only">Calls</label>
        <select id="only" name="only" {...invalidIf(problem, "only")}>
          <option value="" selected={!f.only}>All calls</option>
          <option value="reads" selected={f.only === "reads"}>Only calls that read a page</option>
        </select>
        <FieldError problem={problem} name="only" />
      </div>
      <div>
        <label for="status">Show</label>
        <select id="status" name="status" {...invalidIf(problem, "status")}>
          <option value="" selected={!f.status}>Calls</option>
          <option value="trace" selected={f.status === "trace"}>
            Protocol traces (MCP handshakes, tool lists and pings)
          </option>
          <option value="all" selected={f.status === "all"}>Calls and traces</option>
        </select>
        <FieldError problem={problem} name="status" />
      </div>
      {f.article
        ? (
          <div>
            <label for="article">Article id</label>
            <input
              type="text"
              id="article"
              name="article"
              value={f.article}
              {...invalidIf(problem, "article")}
            />
            <FieldError problem={problem} name="article" />
          </div>
        )
        : null}
      <div class="row actions">
        <button type="submit">Filter</button>
        {Object.keys(f).length ? <a href="/publisher/calls">Clear filters</a> : null}
        <a class="button secondary" href={`/publisher/calls.csv${queryOf(f)}`} download>
          Download CSV
        </a>
      </div>
    </form>
  );
}
