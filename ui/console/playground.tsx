/**
 * The passages playground: a query runs retrieve_passages the way a buyer's agent would, and the
 * passages come back with their article, score and license, plus the API's answer verbatim.
 */
import { ConsoleShell, CsrfField, type Who } from "./shell.tsx";

/** One passage, as the page shows it (read from whatever fields the API returned). */
export interface PassageView {
  title: string;
  url: string | null;
  text: string;
  score: number | null;
  section: string | null;
  /** License notes in words: rights, price, the decision's reason. */
  notes: string[];
}

/** What the playground shows. */
export interface PlaygroundProps {
  who: Who;
  query: string;
  limit: string;
  /** The passages of the last run, or null before one. */
  passages: PassageView[] | null;
  /** The API's answer, pretty-printed, for the "as returned" view. */
  raw: string | null;
  problem?: string | null;
}

/** GET and POST /publisher/playground. */
export function PlaygroundPage(props: PlaygroundProps) {
  return (
    <ConsoleShell
      who={props.who}
      section="playground"
      title="Passages playground"
      problem={props.problem}
    >
      <section class="card" aria-labelledby="try-title">
        <h2 id="try-title">Try a query</h2>
        <p class="muted small">
          Runs <code>retrieve_passages</code>{" "}
          on your catalog as a buyer's agent would see it: the passages that best answer the query,
          each with its article and license. Each run shows in Calls as a playground call.
        </p>
        <form method="post" action="/publisher/playground">
          <CsrfField token={props.who.csrfToken} />
          <label for="query">Query</label>
          <input
            id="query"
            name="query"
            type="search"
            required
            maxLength={200}
            value={props.query}
          />
          <label for="limit">How many passages (optional)</label>
          <p class="hint" id="limit-hint">1 to 50; 10 when left empty.</p>
          <input
            id="limit"
            name="limit"
            type="number"
            min="1"
            max="50"
            step="1"
            aria-describedby="limit-hint"
            value={props.limit}
            style="max-width:8rem"
          />
          <p>
            <button type="submit">Retrieve passages</button>
          </p>
        </form>
      </section>
      {props.passages ? <Results {...props} passages={props.passages} /> : null}
    </ConsoleShell>
  );
}

function Results(props: PlaygroundProps & { passages: PassageView[] }) {
  return (
    <section class="card" aria-labelledby="results-title">
      <h2 id="results-title">
        {props.passages.length === 0
          ? "No passages"
          : `${props.passages.length} ${props.passages.length === 1 ? "passage" : "passages"}`}
      </h2>
      {props.passages.length === 0
        ? (
          <p class="muted">
            Nothing an agent may use matches "{props.query}". Try other words, or check that your
            catalog is in search (Overview) and that retrieval is granted (Settings).
          </p>
        )
        : (
          <ol class="passages">
            {props.passages.map((p, i) => (
              <li key={i}>
                <h3>
                  {p.url ? <a href={p.url}>{p.title}</a> : p.title}
                  {p.section ? <span class="muted small">{` · ${p.section}`}</span> : null}
                </h3>
                {p.url ? <p class="small muted url">{p.url}</p> : null}
                <blockquote class="message">{p.text}</blockquote>
                <p class="small">
                  {p.score !== null ? <>Score {p.score.toFixed(3)}</> : null}
                  {p.score !== null && p.notes.length ? " · " : null}
                  {p.notes.join(" · ")}
                </p>
              </li>
            ))}
          </ol>
        )}
      {props.raw
        ? (
          <details>
            <summary>The API's answer as returned</summary>
            <pre class="raw">{props.raw}</pre>
          </details>
        )
        : null}
    </section>
  );
}
