/**
 * The call log: the last 100 calls on every surface, who made each, how it went and how long it
 * took, with article reads set apart ("who read what"). Protocol messages that only carried a
 * call (MCP initialize, tools/call envelopes, A2A methods: `_method:*`, status trace) are left out
 * unless "Show" asks for them.
 */
import { type Caller, CallerName } from "./caller.tsx";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, when, type Who } from "./shell.tsx";
import { noun, plural } from "../../server/platform/words.ts";

/** One row of GET /api/publisher/calls; `caller` is absent on APIs that do not name callers. */
export interface CallRow {
  at: string;
  surface: string;
  tool: string;
  userAgent: string;
  latencyMs: number;
  status: string;
  httpStatus: number | null;
  caller?: Caller | null;
}

/** What the calls page shows. */
export interface CallsProps {
  who: Who;
  /** The rows to list, after folding and filtering, newest first. */
  calls: CallRow[];
  /** How many rows the API returned (at most 100). */
  received: number;
  /** The surface filter ("" for all) and the surfaces to choose from. */
  surface: string;
  surfaces: readonly string[];
  readsOnly: boolean;
  /** Which rows were asked of the API: "" (calls), "trace" or "all". */
  status?: string;
  problem?: string | null;
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
  const m = /^_(rest|dash|nlweb|method):(.*)$/.exec(raw);
  const name = m ? m[2] : raw;
  if (m?.[1] === "method") return `Protocol: ${name}`;
  const words = TOOL_WORDS[name] ?? sentence(name);
  return m?.[1] === "dash" ? `${words} (playground)` : words;
}

/** Whether a row is an article read (get_article on any surface). */
export function isRead(raw: string): boolean {
  return raw.replace(/^_(rest|dash|nlweb):/, "") === "get_article";
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
  const filtered = props.surface !== "" || props.readsOnly;
  return (
    <ConsoleShell who={props.who} section="calls" title="Calls" problem={props.problem}>
      <p class="muted">
        The last 100 calls agents made to your MCP server, REST API and A2A server, newest first.
        Times are UTC.
      </p>
      {props.received === 0 ? <NoCalls /> : (
        <>
          <Readers calls={props.calls} />
          <Filter {...props} />
          <section class="card" aria-labelledby="calls-title">
            <h2 id="calls-title">
              {filtered ? `${count(props.calls.length)} matching calls` : "Latest calls"}
            </h2>
            {props.calls.length === 0
              ? <p class="muted">None of the last 100 calls match this filter.</p>
              : <CallTable calls={props.calls} />}
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
        When an agent searches or reads your catalog through MCP, REST or A2A, the call shows here
        within seconds, with who made it and how it went.
      </p>
      <p>
        To make the first one, paste your MCP URL from the <a href="/publisher">Overview</a>{" "}
        into an MCP client (Claude Desktop, Cursor, MCP Inspector) and search your catalog, or try
        the <a href="/publisher/playground">passages playground</a>.
      </p>
    </section>
  );
}

/** Who read articles among the rows shown, most reads first. */
function Readers(props: { calls: CallRow[] }) {
  const reads = props.calls.filter((c) => isRead(c.tool) && c.status === "ok");
  if (reads.length === 0) return null;
  const byCaller = new Map<string, { caller: Caller | null; n: number }>();
  for (const r of reads) {
    const key = callerKey(r.caller);
    const entry = byCaller.get(key) ?? { caller: r.caller ?? null, n: 0 };
    entry.n++;
    byCaller.set(key, entry);
  }
  // Rows from an API that does not name callers are counted, not listed.
  const readers = [...byCaller.values()].filter((r) => callerKey(r.caller) !== "")
    .sort((a, b) => b.n - a.n);
  return (
    <section class="card" aria-labelledby="readers-title">
      <h2 id="readers-title">Who read your articles</h2>
      <p class="muted small">
        {count(reads.length)} article {noun(reads.length, "read")}{" "}
        among these calls (highlighted below).
      </p>
      {readers.length
        ? (
          <ul class="readers">
            {readers.map((r, i) => (
              <li key={i}>
                <CallerName caller={r.caller} />: {plural(r.n, "read", { shown: count(r.n) })}
              </li>
            ))}
          </ul>
        )
        : null}
    </section>
  );
}

function callerKey(c: Caller | null | undefined): string {
  switch (c?.kind) {
    case "buyer":
      return `buyer:${c.buyerId}`;
    case "oauth":
      return `oauth:${c.clientId}:${c.email ?? ""}`;
    case "anonymous":
    case "publisher":
      return c.kind;
    default:
      return "";
  }
}

function Filter(props: CallsProps) {
  return (
    <form method="get" action="/publisher/calls" class="card row filter">
      <div>
        <label for="surface">Surface</label>
        <select id="surface" name="surface">
          <option value="" selected={props.surface === ""}>All surfaces</option>
          {props.surfaces.map((s) => (
            <option key={s} value={s} selected={props.surface === s}>{s}</option>
          ))}
        </select>
      </div>
      <div>
        <label for="only">Calls</label>
        <select id="only" name="only">
          <option value="" selected={!props.readsOnly}>All calls</option>
          <option value="reads" selected={props.readsOnly}>Article reads only</option>
        </select>
      </div>
      <div>
        <label for="status">Show</label>
        <select id="status" name="status">
          <option value="" selected={!props.status}>Calls</option>
          <option value="trace" selected={props.status === "trace"}>
            Protocol traces (_method:…)
          </option>
          <option value="all" selected={props.status === "all"}>Calls and traces</option>
        </select>
      </div>
      <div class="row">
        <button type="submit">Filter</button>
        {props.surface !== "" || props.readsOnly || props.status
          ? <a href="/publisher/calls">Show all</a>
          : null}
      </div>
    </form>
  );
}

/**
 * How a call went. A 402 is a price quote, not a failure: a crawler asked for a priced page
 * without paying (the landing path's pay-per-crawl), or a caller is past the paywall meter
 * (docs/SPEC.md); the call log records it as an error because its status is 4xx.
 */
export function Outcome(props: { status: string; httpStatus: number | null }) {
  if (props.httpStatus === 402) {
    return (
      <>
        <span class="tag quote">priced</span> 402 payment required
      </>
    );
  }
  return (
    <>
      <span class={`tag ${props.status === "error" ? "err" : "ok"}`}>{props.status}</span>
      {props.httpStatus !== null ? ` ${props.httpStatus}` : ""}
    </>
  );
}

function CallTable(props: { calls: CallRow[] }) {
  return (
    <Scroll label="Calls">
      <table>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Surface</th>
            <th scope="col">Tool</th>
            <th scope="col">Who</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {props.calls.map((c, i) => {
            const read = isRead(c.tool);
            return (
              <tr key={i} class={read ? "read" : undefined}>
                <td class="nowrap">
                  <time datetime={c.at}>{when(c.at)}</time>
                </td>
                <td>{c.surface}</td>
                <td>
                  {toolLabel(c.tool)} {read ? <span class="tag">read</span> : null}
                  <br />
                  <code class="small">{c.tool}</code>
                </td>
                <td>
                  <CallerName caller={c.caller} />
                  {c.userAgent
                    ? <span class="small muted ua" title={c.userAgent}>{c.userAgent}</span>
                    : null}
                </td>
                <td class="nowrap">
                  <Outcome status={c.status} httpStatus={c.httpStatus} />
                </td>
                <td class="num nowrap">{ms(c.latencyMs)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Scroll>
  );
}
