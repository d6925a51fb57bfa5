/**
 * The call log: every call agents made, newest first, who made it, which page it read, how it went
 * and how long it took; filtered by date range, surface, outcome, caller and article (a GET form,
 * so it works without JavaScript), paged by the API's cursor, and downloadable as CSV. The API
 * leaves out protocol messages that only carried a call (MCP initialize, tools/call envelopes:
 * `_method:*`, status trace) unless "Show" asks for them.
 */
import type { z } from "zod";
import type { agentSchema, listedCallSchema } from "../../server/surfaces/manage/calls_schemas.ts";
import { plural, surfaceInWords } from "../../server/platform/words.ts";
import { type FieldProblem } from "../field_error.tsx";
import { CallFilterForm, queryOf } from "./call_filter.tsx";
import { CallerName } from "./caller.tsx";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, When, type Who } from "./shell.tsx";
import type { CallFilters } from "./call_filter.tsx";

/** One row of GET /api/publisher/calls. */
export type CallRow = z.output<typeof listedCallSchema>;
/** A caller group of the filter (GET /api/publisher/analytics/traffic `series[].agent`). */
export type Agent = z.output<typeof agentSchema>;

export type { CallFilters } from "./call_filter.tsx";

/** What the calls page shows. */
export interface CallsProps {
  who: Who;
  calls: CallRow[];
  /** How many calls match the filters, on every page. */
  total: number;
  nextCursor: string | null;
  /** This is not the first page. */
  paged: boolean;
  filters: CallFilters;
  surfaces: readonly string[];
  outcomes: readonly string[];
  agents: Agent[];
  problem?: string | null;
  fieldProblem?: FieldProblem | null;
}

const TOOL_WORDS: Record<string, string> = {
  search_articles: "Search articles",
  get_article: "Read article",
  retrieve_passages: "Retrieve passages",
  list_recent: "List recent articles",
  list_by_topic: "List by topic",
  request_license: "Request a license",
};

/** A tool's readable name: `_rest:get_article` → "Read article", `_method:x` → "Protocol: x". */
export function toolLabel(raw: string): string {
  const m = /^_(rest|dash|nlweb|landing|method):(.*)$/.exec(raw);
  const name = m ? m[2] : raw;
  if (m?.[1] === "method") return `Protocol: ${name}`;
  if (m?.[1] === "landing") return `Site: ${name}`;
  const words = TOOL_WORDS[name] ?? sentence(name);
  return m?.[1] === "dash" ? `${words} (playground)` : words;
}

/** A latency: one decimal under 10 ms, whole milliseconds above. */
function ms(latency: number): string {
  return `${latency < 10 ? latency.toFixed(1) : count(Math.round(latency))} ms`;
}

function sentence(name: string): string {
  const s = name.replace(/_/g, " ").trim();
  return s ? s[0].toUpperCase() + s.slice(1) : name;
}

/** GET /publisher/calls. */
export function CallsPage(props: CallsProps) {
  const filtered = Object.keys(props.filters).length > 0;
  const empty = props.total === 0 && !filtered && !props.paged;
  return (
    <ConsoleShell who={props.who} section="calls" title="Calls" problem={props.problem}>
      <p class="muted">
        Every call agents and crawlers made to your MCP server, REST API, A2A server and site,
        newest first, with the page each one read. The From and To days are UTC days.
      </p>
      {empty && !props.fieldProblem ? <NoCalls /> : (
        <>
          <CallFilterForm {...props} />
          <section class="card" aria-labelledby="calls-title">
            <h2 id="calls-title">
              {filtered
                ? `${plural(props.total, "matching call", { shown: count(props.total) })}`
                : plural(props.total, "call", { shown: count(props.total) })}
            </h2>
            {props.calls.length === 0
              ? <p>No calls match these filters. Widen the dates or clear a filter.</p>
              : <CallTable calls={props.calls} filters={props.filters} />}
            <Pager {...props} />
          </section>
        </>
      )}
    </ConsoleShell>
  );
}

function NoCalls() {
  return (
    <section class="card" aria-labelledby="none-title">
      <h2 id="none-title">No calls yet</h2>
      <p>
        When an agent searches or reads your catalog through MCP, REST or A2A, or a crawler visits
        your site, the call shows here within seconds, with who made it and how it went.
      </p>
      <p>
        To make the first one, paste your MCP URL from the <a href="/publisher">Overview</a>{" "}
        into an MCP client (Claude Desktop, Cursor, MCP Inspector) and search your catalog, or try
        the <a href="/publisher/playground">passages playground</a>.
      </p>
    </section>
  );
}

function Pager(props: CallsProps) {
  if (!props.nextCursor && !props.paged) return null;
  return (
    <nav class="pager" aria-label="Pages of calls">
      {props.paged ? <a href={`/publisher/calls${queryOf(props.filters)}`}>Newest calls</a> : null}
      {props.nextCursor
        ? (
          <a href={`/publisher/calls${queryOf(props.filters, { cursor: props.nextCursor })}`}>
            Older calls
          </a>
        )
        : null}
    </nav>
  );
}

const OUTCOME_WORDS: Record<CallRow["outcome"], [tag: string, cls: string]> = {
  ok: ["ok", "ok"],
  priced: ["priced", "quote"],
  refused: ["refused", "err"],
  not_found: ["not found", "err"],
  failed: ["error", "err"],
  trace: ["trace", "muted"],
};

/**
 * How a call went. A 402 is a price quote, not a failure: a crawler asked for a priced page
 * without paying (the landing path's pay-per-crawl), or a caller is past the paywall meter; the
 * filter's "Priced (402 quote)" says so.
 */
export function Outcome(props: { outcome: CallRow["outcome"]; httpStatus: number | null }) {
  const [tag, cls] = OUTCOME_WORDS[props.outcome];
  return (
    <>
      <span class={`tag ${cls}`}>{tag}</span>
      {props.httpStatus !== null ? ` ${props.httpStatus}` : ""}
    </>
  );
}

function CallTable(props: { calls: CallRow[]; filters: CallFilters }) {
  return (
    <Scroll label="Calls">
      <table>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Call</th>
            <th scope="col">Page read</th>
            <th scope="col">Who</th>
            <th scope="col">Outcome</th>
            <th scope="col" class="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {props.calls.map((c) => (
            <tr key={c.id} class={c.article ? "read" : undefined}>
              <td class="nowrap">
                <When iso={c.at} />
              </td>
              <td>
                {toolLabel(c.tool)} <span class="muted small">{surfaceInWords(c.surface)}</span>
              </td>
              <td class="page-read">
                {c.article
                  ? <PageRead article={c.article} filters={props.filters} />
                  : <span class="muted">—</span>}
              </td>
              <td>
                <a href={`/publisher/calls${queryOf(props.filters, { agent: c.agent.key })}`}>
                  {c.agent.name}
                </a>
                {c.caller.kind === "oauth" ? <CallerName caller={c.caller} /> : null}
                {c.userAgent
                  ? <span class="small muted ua" title={c.userAgent}>{c.userAgent}</span>
                  : null}
              </td>
              <td class="nowrap">
                <Outcome outcome={c.outcome} httpStatus={c.httpStatus} />
              </td>
              <td class="num nowrap">{ms(c.latencyMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

function PageRead(props: { article: NonNullable<CallRow["article"]>; filters: CallFilters }) {
  const a = props.article;
  return (
    <>
      {a.url ? <a href={a.url}>{a.title ?? a.id}</a> : <span>{a.title ?? "Deleted article"}</span>}
      <br />
      <a class="small" href={`/publisher/calls${queryOf(props.filters, { article: a.id })}`}>
        Calls for this page
      </a>
    </>
  );
}
