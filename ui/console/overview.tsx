/** The console's overview: what is live, this month's figures, the last 30 days, and what to do next. */
import type { z } from "zod";
import type { analyticsSchema } from "../../server/surfaces/manage/openapi_schemas.ts";
import type { settingsResponseSchema } from "../../server/surfaces/manage/schemas.ts";
import { BarChart, StackedBarChart } from "../chart.tsx";
import { Checklist, type Step } from "./checklist.tsx";
import { ConsoleShell, Copyable, count, Figure, type Who } from "./shell.tsx";
import { centsToUsd, formatUsd } from "../../server/platform/money.ts";
import { EarnedMeans } from "./earnings.tsx";
import { surfaceInWords } from "../../server/platform/words.ts";
import { monthInWords } from "../../server/platform/local_time.ts";

/** Where the publisher's surfaces answer (GET /api/publisher/settings `urls`). */
export type SurfaceUrls = z.output<typeof settingsResponseSchema>["urls"];

/** One day of GET /api/publisher/analytics. */
export type ActivityDay = z.output<typeof analyticsSchema>["daily"][number];

/** Totals of a window of GET /api/publisher/analytics. */
export type ActivityTotals = z.output<typeof analyticsSchema>["totals"];

export type { Step } from "./checklist.tsx";

/** What the overview shows. */
export interface OverviewProps {
  who: Who;
  urls: SurfaceUrls;
  publicRest: boolean;
  a2a: boolean;
  month: ActivityTotals & { month: string };
  /** This statement month on GET /api/publisher/earnings; null before anything is earned. */
  earned: { earningsUsdCents: number; chargedReads: number } | null;
  surfaces: string[];
  daily: ActivityDay[];
  coverage: { embedded: number; total: number };
  steps: Step[];
}

/** GET /publisher. */
export function OverviewPage(props: OverviewProps) {
  const { urls, month, coverage } = props;
  const pct = coverage.total ? Math.round((coverage.embedded / coverage.total) * 100) : 100;
  return (
    <ConsoleShell who={props.who} section="overview" title="Overview">
      <Checklist steps={props.steps} />
      <div class="grid">
        <Figure value={count(month.calls)} label={`calls in ${monthInWords(month.month)}`} />
        <Figure value={count(month.reads)} label="article reads" />
        <Figure value={count(props.earned?.chargedReads ?? 0)} label="charged reads" />
        <Figure value={formatUsd(props.earned?.earningsUsdCents ?? 0)} label="earned this month" />
      </div>
      <EarnedMeans />
      <section class="card" aria-labelledby="live-title">
        <h2 id="live-title">What is live</h2>
        <p class="muted small">Give these to AI companies; every answer carries your license.</p>
        <h3 class="small">MCP server</h3>
        <Copyable label="MCP URL" value={urls.mcp} />
        <h3 class="small">REST API</h3>
        {urls.rest
          ? (
            <>
              <Copyable label="REST base" value={urls.rest} />
              {!props.publicRest && (
                <p class="muted small">
                  Buyers with a Folio key only. Switch on Public REST in Settings to let anyone call
                  it.
                </p>
              )}
            </>
          )
          : <p class="muted small">Needs a custom domain (Settings → Custom domain).</p>}
        <h3 class="small">A2A agent card</h3>
        {props.a2a
          ? <Copyable label="agent card URL" value={urls.agentCard} />
          : <p class="muted small">Off: switch on A2A in Settings.</p>}
        <h3 class="small">License terms page</h3>
        <Copyable label="terms page URL" value={urls.terms} />
      </section>
      <section class="card" aria-labelledby="activity-title">
        <h2 id="activity-title">Last {props.daily.length} days</h2>
        {props.surfaces.length === 0
          ? (
            <p class="muted">
              No calls yet. Paste your MCP URL into an MCP client (Claude Desktop, Cursor, MCP
              Inspector) and search your catalog: the call shows here within seconds.
            </p>
          )
          : <Activity {...props} />}
      </section>
      <section class="card" aria-labelledby="coverage-title">
        <h2 id="coverage-title">Search coverage</h2>
        {coverage.total === 0
          ? <p class="muted">No articles yet: add your catalog under Sources & jobs or Books.</p>
          : <Coverage {...coverage} pct={pct} />}
      </section>
    </ConsoleShell>
  );
}

/** How much of the catalog semantic search covers. */
function Coverage(props: { embedded: number; total: number; pct: number }) {
  const { pct } = props;
  const coverage = props;
  return (
    <>
      <p>
        {count(coverage.embedded)} of {count(coverage.total)}{" "}
        articles and chapters are in semantic search ({pct}%).
        {coverage.embedded < coverage.total
          ? " The rest are found by keyword until their embeddings are built."
          : ""}
      </p>
      <div
        class="progress"
        role="progressbar"
        aria-label="Semantic search coverage"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <span style={`width:${pct}%`} />
      </div>
    </>
  );
}

/** The charts of the last days, once there is something to chart. */
function Activity(props: OverviewProps) {
  return (
    <>
      <h3 class="small">Calls by surface</h3>
      <StackedBarChart
        label={`Calls per day by surface, ${props.daily[0]?.day} to ${props.daily.at(-1)?.day}`}
        series={props.surfaces.map((s, i) => ({ name: surfaceInWords(s), className: `s${i % 7}` }))}
        peak={(n) => `busiest day: ${count(n)} ${n === 1 ? "call" : "calls"}`}
        stacks={props.daily.map((d) => ({
          label: d.day,
          values: props.surfaces.map((s) => d.calls[s] ?? 0),
        }))}
      />
      <h3 class="small">Earnings from reads per day (USD)</h3>
      <BarChart
        label="Earnings per day in US dollars"
        bars={props.daily.map((d) => ({
          label: d.day,
          value: centsToUsd(d.earningsUsdCents),
          title: `${d.day}: ${formatUsd(d.earningsUsdCents)} from ${d.chargedReads} charged reads`,
        }))}
      />
      <p class="small">
        <a href="/publisher/traffic">Traffic per crawler and top articles</a> ·{" "}
        <a href="/publisher/calls">See the latest calls</a> ·{" "}
        <a href="/publisher/earnings">Earnings and payouts</a>
      </p>
    </>
  );
}
