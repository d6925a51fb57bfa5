/**
 * Traffic (issue 34; what TollBit's console and Cloudflare AI Crawl Control show): calls per
 * crawler or agent per UTC day as a stacked chart with the same numbers in tables, and the
 * articles most read and most earning, each linking to its calls.
 */
import { dayInWords } from "../../server/platform/local_time.ts";
import type { z } from "zod";
import type {
  topArticlesSchema,
  trafficSchema,
} from "../../server/surfaces/manage/traffic_schemas.ts";
import { formatUsd } from "../../server/platform/money.ts";
import { plural } from "../../server/platform/words.ts";
import { HorizontalBarChart, StackedBarChart } from "../chart.tsx";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, Figure, type Who, WindowTabs } from "./shell.tsx";

type Traffic = z.output<typeof trafficSchema>;
type TopArticles = z.output<typeof topArticlesSchema>;

/** What the traffic page shows. */
export interface TrafficProps {
  who: Who;
  traffic: Traffic;
  byReads: TopArticles["articles"];
  byEarnings: TopArticles["articles"];
  windows: readonly number[];
  problem?: string | null;
}

/** The chart's series: each busy caller, then everyone else. */
function seriesOf(t: Traffic) {
  const rows = t.series.map((s, i) => ({
    name: s.agent.name,
    key: s.agent.key as string | null,
    className: `s${i}`,
    total: s.total,
    daily: s.daily,
  }));
  if (t.others.total > 0) {
    rows.push({
      name: `${plural(t.others.callers, "other caller")}`,
      key: null,
      className: `s${rows.length}`,
      total: t.others.total,
      daily: t.others.daily,
    });
  }
  return rows;
}

/** GET /publisher/traffic. */
export function TrafficPage(props: TrafficProps) {
  const t = props.traffic;
  return (
    <ConsoleShell who={props.who} section="traffic" title="Traffic" problem={props.problem}>
      <p class="muted">
        Who calls your catalog (AI crawlers on your site, buyers' agents on MCP, REST and A2A,
        anonymous callers) and which articles they read, per UTC day from {dayInWords(t.from)} to
        {" "}
        {dayInWords(t.to)}.
      </p>
      <WindowTabs base="/publisher/traffic" days={t.days} windows={props.windows} />
      {t.total === 0 ? <NoTraffic days={t.days} /> : (
        <>
          <div class="grid">
            <Figure value={count(t.total)} label={`calls in ${t.days} days`} />
            <Figure
              value={count(t.series.length + t.others.callers)}
              label="crawlers, agents and other callers"
            />
          </div>
          <Callers traffic={t} />
        </>
      )}
      <Articles
        id="reads"
        title={`Most read articles, last ${t.days} days`}
        rows={props.byReads}
        value={(a) => a.reads}
        text={(a) => count(a.reads)}
        days={t}
      />
      <Articles
        id="earnings"
        title={`Top earning articles, last ${t.days} days`}
        rows={props.byEarnings.filter((a) => a.earningsUsdCents > 0)}
        value={(a) => a.earningsUsdCents}
        text={(a) => formatUsd(a.earningsUsdCents)}
        days={t}
      />
    </ConsoleShell>
  );
}

function NoTraffic(props: { days: number }) {
  return (
    <section class="card" aria-labelledby="none-title">
      <h2 id="none-title">No calls in the last {props.days} days</h2>
      <p>
        When a crawler visits your site or an agent searches or reads your catalog, its calls show
        here per day, one colour per crawler or agent. Paste your MCP URL from the{" "}
        <a href="/publisher">Overview</a> into an MCP client to make the first one.
      </p>
    </section>
  );
}

function Callers(props: { traffic: Traffic }) {
  const t = props.traffic;
  const series = seriesOf(t);
  const since = `from=${t.from}&to=${t.to}`;
  return (
    <section class="card" aria-labelledby="callers-title">
      <h2 id="callers-title">Calls per crawler or agent</h2>
      <StackedBarChart
        stacks={t.dayLabels.map((day, i) => ({
          label: day,
          values: series.map((s) => s.daily[i]),
        }))}
        series={series}
        label={`Calls per day from ${t.from} to ${t.to}, by caller: ${
          series.map((s) => `${s.name} ${s.total}`).join(", ")
        }. The tables below give every number.`}
        peak={(n) => `busiest day: ${plural(n, "call", { shown: count(n) })}`}
      />
      <Scroll label="Calls per caller">
        <table>
          <caption class="left">Calls per caller in the window</caption>
          <thead>
            <tr>
              <th scope="col">Caller</th>
              <th scope="col" class="num">Calls</th>
              <th scope="col" class="num">Share</th>
              <th scope="col" class="num">Busiest day</th>
            </tr>
          </thead>
          <tbody>
            {series.map((s) => (
              <tr key={s.name}>
                <th scope="row">
                  {s.key
                    ? (
                      <a href={`/publisher/calls?agent=${encodeURIComponent(s.key)}&${since}`}>
                        {s.name}
                      </a>
                    )
                    : s.name}
                </th>
                <td class="num">{count(s.total)}</td>
                <td class="num">{Math.round((s.total / t.total) * 100)}%</td>
                <td class="num">{count(Math.max(...s.daily))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <details>
        <summary>Calls per day, as a table</summary>
        <Scroll label="Calls per day and caller">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => <th key={s.name} scope="col" class="num">{s.name}</th>)}
                <th scope="col" class="num">All</th>
              </tr>
            </thead>
            <tbody>
              {t.dayLabels.map((day, i) => (
                <tr key={day}>
                  <th scope="row" class="nowrap">{day}</th>
                  {series.map((s) => <td key={s.name} class="num">{count(s.daily[i])}</td>)}
                  <td class="num">{count(series.reduce((n, s) => n + s.daily[i], 0))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </details>
    </section>
  );
}

type Row = TopArticles["articles"][number];

function Articles(props: {
  id: string;
  title: string;
  rows: Row[];
  value: (a: Row) => number;
  text: (a: Row) => string;
  days: Traffic;
}) {
  const since = `from=${props.days.from}&to=${props.days.to}`;
  return (
    <section class="card" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.rows.length === 0
        ? (
          <p class="muted">
            {props.id === "reads"
              ? "No article was read in this window."
              : "No read was charged in this window: buyers pay for PAYWALL articles."}
          </p>
        )
        : (
          <>
            <HorizontalBarChart
              bars={props.rows.map((a) => ({
                label: a.title ?? a.id,
                value: props.value(a),
                valueText: props.text(a),
                title: `${a.title ?? a.id}: ${props.text(a)}`,
              }))}
              label={`${props.title}: ${
                props.rows.map((a) => `${a.title ?? a.id} ${props.text(a)}`).join("; ")
              }`}
            />
            <p class="muted small">
              Earned: your prices on the article's charged reads in these days (metered and
              landing-page reads, Folio's fee not in it), added up exactly and rounded once to the
              cent; license fees are not per article and show on Earnings.
            </p>
            <Scroll label={props.title}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Article</th>
                    <th scope="col" class="num">Reads</th>
                    <th scope="col" class="num">Charged reads</th>
                    <th scope="col" class="num">Earned</th>
                  </tr>
                </thead>
                <tbody>
                  {props.rows.map((a) => (
                    <tr key={a.id}>
                      <th scope="row" class="page-read">
                        {a.url
                          ? <a href={a.url}>{a.title ?? a.id}</a>
                          : (a.title ?? "Deleted article")}
                        <br />
                        <a
                          class="small"
                          href={`/publisher/calls?article=${encodeURIComponent(a.id)}&${since}`}
                        >
                          Its calls
                        </a>
                      </th>
                      <td class="num">{count(a.reads)}</td>
                      <td class="num">{count(a.chargedReads)}</td>
                      <td class="num">{formatUsd(a.earningsUsdCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          </>
        )}
    </section>
  );
}
