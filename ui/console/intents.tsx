/**
 * Reader intents: the end user's question behind each read (an agent's `last_user_prompt`),
 * verbatim. The most frequent questions of the last 30 days as a chart and a table, then the last
 * 100 intents with the article they led to and who asked.
 */
import { surfaceInWords } from "../../server/platform/words.ts";
import type { z } from "zod";
import type { analyticsSchema } from "../../server/surfaces/manage/openapi_schemas.ts";
import { HorizontalBarChart } from "../chart.tsx";
import { type Caller, CallerName } from "./caller.tsx";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, When, type Who } from "./shell.tsx";

/** One row of GET /api/publisher/intents; `caller` is absent on APIs that do not name askers. */
export interface IntentRow {
  articleId: string;
  prompt: string;
  surface: string;
  at: string;
  caller?: Caller | null;
}

/** One of GET /api/publisher/analytics `topIntents`. */
export type TopIntent = z.output<typeof analyticsSchema>["topIntents"][number];

/** What the intents page shows. */
export interface IntentsProps {
  who: Who;
  intents: IntentRow[];
  top: TopIntent[];
  /** The window of `top`, in days. */
  days: number;
}

/** GET /publisher/intents. */
export function IntentsPage(props: IntentsProps) {
  const asked = props.intents.some((i) => i.caller !== undefined);
  return (
    <ConsoleShell who={props.who} section="intents" title="Reader intents">
      <p class="muted">
        What readers asked their AI assistants when the assistant read your articles: the question
        an agent passes with each read, kept verbatim.
      </p>
      {props.intents.length === 0 && props.top.length === 0 ? <NoIntents /> : (
        <>
          <section class="card" aria-labelledby="top-title">
            <h2 id="top-title">Most asked in the last {props.days} days</h2>
            {props.top.length === 0
              ? <p class="muted">No questions in the last {props.days} days.</p>
              : <Top top={props.top} days={props.days} />}
          </section>
          <section class="card" aria-labelledby="recent-title">
            <h2 id="recent-title">The last {count(props.intents.length)} intents</h2>
            <Scroll label="Recent intents">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Question</th>
                    <th scope="col">Article</th>
                    <th scope="col">Surface</th>
                    {asked ? <th scope="col">Who asked</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {props.intents.map((i, n) => (
                    <tr key={n}>
                      <td class="nowrap">
                        <When iso={i.at} />
                      </td>
                      <td class="prompt">{i.prompt}</td>
                      <td>
                        <code class="small">{i.articleId}</code>
                      </td>
                      <td>{surfaceInWords(i.surface)}</td>
                      {asked
                        ? (
                          <td>
                            <CallerName caller={i.caller} />
                          </td>
                        )
                        : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          </section>
        </>
      )}
    </ConsoleShell>
  );
}

function NoIntents() {
  return (
    <section class="card" aria-labelledby="none-title">
      <h2 id="none-title">No reader intents yet</h2>
      <p>
        When an agent reads one of your articles it passes the question its user asked (the{" "}
        <code>last_user_prompt</code>). Those questions collect here, so you can see what readers
        want from your catalog and which topics to cover next.
      </p>
      <p>
        The first appears after the first article read: see <a href="/publisher/calls">Calls</a>
        {" "}
        for what agents are doing.
      </p>
    </section>
  );
}

function Top(props: { top: TopIntent[]; days: number }) {
  return (
    <>
      <HorizontalBarChart
        label={`The ${props.top.length} most asked questions of the last ${props.days} days, by times asked`}
        bars={props.top.map((t) => ({
          label: t.prompt,
          value: t.count,
          title: `${t.prompt}: asked ${t.count} ${t.count === 1 ? "time" : "times"}`,
        }))}
      />
      <Scroll label="Most asked questions">
        <table>
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col" class="num">Times asked</th>
              <th scope="col">Last asked</th>
            </tr>
          </thead>
          <tbody>
            {props.top.map((t, i) => (
              <tr key={i}>
                <td class="prompt">{t.prompt}</td>
                <td class="num">{count(t.count)}</td>
                <td class="nowrap">
                  <When iso={t.lastAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}
