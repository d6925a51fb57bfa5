/**
 * The public status page (docs/SPEC.md "Status endpoints": /status): the three SLO verdicts, probe
 * history, incidents, and per-surface calls, errors and latency. Works without JavaScript; every
 * chart has its numbers in a table beside it.
 */
import type {
  DailyFigures,
  ProbePeriod,
  StatusReport,
  SurfaceFigures,
  Verdict,
} from "../server/domain/status/report.ts";
import { BarChart, LineChart } from "./chart.tsx";
import { Scroll } from "./console/scroll.tsx";
import { Page } from "./layout.tsx";
import { plural, surfaceInWords } from "../server/platform/words.ts";
import { dayInWords, timeInWords } from "../server/platform/local_time.ts";

/** Everything the page shows, loaded by server/pages/status.ts. */
export interface StatusPageProps {
  days: number;
  windows: readonly number[];
  report: StatusReport;
  daily: DailyFigures[];
  probes: ProbePeriod[];
}

const VERDICT_WORDS: Record<Verdict, string> = {
  met: "Met",
  missed: "Missed",
  measuring: "Measuring",
};

/** The status page. */
export function StatusPage(props: StatusPageProps) {
  const { report } = props;
  const slo = report.slo;
  const ongoing = report.incidents.find((i) => i.endedAt === null);
  const verdicts = [slo.availability.verdict, slo.searchP95.verdict, slo.errorRate.verdict];
  const headline = ongoing
    ? { tone: "missed", text: "Some checks are failing now" }
    : verdicts.includes("missed")
    ? { tone: "missed", text: "An objective was missed in this window" }
    : verdicts.every((v) => v === "measuring")
    ? { tone: "measuring", text: "Measuring: not enough data yet for a verdict" }
    : { tone: "met", text: "All systems operational" };
  return (
    <Page title="Folio status" css={CSS}>
      <header class="top">
        <p class="eyebrow">
          <a href="/">Folio</a> · Status
        </p>
        <h1>Service status</h1>
        <p class={`banner ${headline.tone}`} role="status">
          <span class="dot" aria-hidden="true" />
          {headline.text}
        </p>
        <nav aria-label="Window" class="windows">
          {props.windows.map((d) => (
            <a
              key={d}
              href={`/status?days=${d}`}
              aria-current={d === props.days ? "page" : undefined}
            >
              {d === 1 ? "24 hours" : `${d} days`}
            </a>
          ))}
        </nav>
      </header>

      <section aria-labelledby="slo-h">
        <h2 id="slo-h">Objectives over the last {windowWords(props.days)}</h2>
        <div class="cards">
          <SloCard
            name="Availability"
            target={`≥ ${slo.availability.targetPct}%`}
            measured={fmtPct(slo.availability.measuredPct)}
            verdict={slo.availability.verdict}
            note={`${counted(report.uptime.rounds, "probe round")} run, ${
              fmtInt(report.uptime.missedRounds)
            } missed; ${counted(report.uptime.failedChecks, "failed check")}`}
          />
          <SloCard
            name="Search latency p95"
            target={`< ${slo.searchP95.targetMs} ms`}
            measured={fmtMs(slo.searchP95.measuredMs)}
            verdict={slo.searchP95.verdict}
            note={counted(slo.searchP95.searches, "successful search", "successful searches")}
          />
          <SloCard
            name="Error rate"
            target={`< ${slo.errorRate.targetPct}%`}
            measured={fmtPct(slo.errorRate.measuredPct)}
            verdict={slo.errorRate.verdict}
            note={`${counted(sum(report.surfaces.map((s) => s.errors)), "error")} in ${
              counted(sum(report.surfaces.map((s) => s.calls)), "call")
            }`}
          />
        </div>
      </section>

      <section aria-labelledby="probes-h">
        <h2 id="probes-h">Probe history</h2>
        <ProbeStrip periods={props.probes} hourly={props.days === 1} />
        <p class="muted">
          Median store round trip {fmtMs(report.uptime.dbLatencyP50Ms)}
          {report.uptime.lastCheckAt && <>{" · "}last check {fmtTime(report.uptime.lastCheckAt)}</>}
          {report.uptime.missedRounds > 0 && (
            <>
              {" · "}
              {counted(report.uptime.missedRounds, "round")} missed while the service was stopped
            </>
          )}
        </p>
      </section>

      <section aria-labelledby="incidents-h">
        <h2 id="incidents-h">Incidents</h2>
        {report.incidents.length === 0
          ? <p class="empty">No failed probe checks in this window.</p>
          : (
            <Scroll label="Incidents">
              <table>
                <caption class="sr-only">Spans of probe rounds with failed checks</caption>
                <thead>
                  <tr>
                    <th scope="col">Started</th>
                    <th scope="col">Ended</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Failed checks</th>
                    <th scope="col">First failure</th>
                  </tr>
                </thead>
                <tbody>
                  {report.incidents.slice(0, 50).map((i) => (
                    <tr key={i.startedAt}>
                      <td>{fmtTime(i.startedAt)}</td>
                      <td>{i.endedAt ? fmtTime(i.endedAt) : <strong>ongoing</strong>}</td>
                      <td>{i.minutes} min</td>
                      <td>{i.failedChecks}</td>
                      <td class="detail">{i.firstFailure ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
        {report.incidents.length > 50 && (
          <p class="muted">
            The 50 most recent of {report.incidents.length};{" "}
            <a href={`/api/status?days=${props.days}`}>all in JSON</a>.
          </p>
        )}
      </section>

      <section aria-labelledby="surfaces-h">
        <h2 id="surfaces-h">Surfaces</h2>
        {report.surfaces.length === 0
          ? <p class="empty">No calls in this window yet.</p>
          : report.surfaces.map((s) => (
            <SurfacePanel key={s.surface} figures={s} daily={props.daily} />
          ))}
      </section>

      <section aria-labelledby="defs-h">
        <h2 id="defs-h">How these figures are measured</h2>
        <dl class="defs">
          {Object.entries(report.definitions).map(([k, v]) => (
            <div key={k}>
              <dt>{k.replace(/([A-Z])/g, " $1").toLowerCase()}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <p class="muted">
          The same figures as JSON: <a href={`/api/status?days=${props.days}`}>/api/status</a>{" "}
          (CORS-open). Generated {fmtTime(report.generatedAt)}.
        </p>
      </section>
    </Page>
  );
}

function SloCard(
  props: { name: string; target: string; measured: string; verdict: Verdict; note: string },
) {
  return (
    <div class={`card ${props.verdict}`}>
      <h3>{props.name}</h3>
      <p class="figure">{props.measured}</p>
      <p>
        <span class={`badge ${props.verdict}`}>{VERDICT_WORDS[props.verdict]}</span> target{" "}
        {props.target}
      </p>
      <p class="muted">{props.note}</p>
    </div>
  );
}

function ProbeStrip(props: { periods: ProbePeriod[]; hourly: boolean }) {
  const bad = props.periods.filter((p) => p.failed > 0).length;
  const empty = props.periods.filter((p) => p.checks === 0).length;
  const unit = props.hourly ? "hours" : "days";
  return (
    <div
      class="strip"
      role="img"
      aria-label={`${props.periods.length} ${unit}: ${bad} with failed checks, ${empty} without probes`}
    >
      {props.periods.map((p) => {
        const state = p.checks === 0 ? "none" : p.failed === 0 ? "ok" : "bad";
        const label = props.hourly ? fmtTime(p.start) : dayInWords(p.start, "UTC");
        return (
          <span
            key={p.start}
            class={`tick-${state}`}
            title={`${label}: ${
              p.checks === 0 ? "no probes" : `${p.checks - p.failed} of ${p.checks} checks passed`
            }`}
          />
        );
      })}
    </div>
  );
}

function SurfacePanel(props: { figures: SurfaceFigures; daily: DailyFigures[] }) {
  const s = props.figures;
  const days = props.daily.filter((d) => d.surface === s.surface);
  const name = surfaceInWords(s.surface);
  return (
    <article class="panel" aria-labelledby={`s-${s.surface}`}>
      <h3 id={`s-${s.surface}`}>{name}</h3>
      <Scroll label={`${name} figures`}>
        <table class="figures">
          <caption class="sr-only">{name} over the window</caption>
          <thead>
            <tr>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
              <th scope="col">Error rate</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{fmtInt(s.calls)}</td>
              <td>{fmtInt(s.errors)}</td>
              <td>{fmtPct(s.errorRatePct)}</td>
              <td>{fmtMs(s.p50Ms)}</td>
              <td>{fmtMs(s.p95Ms)}</td>
              <td>{fmtMs(s.p99Ms)}</td>
            </tr>
          </tbody>
        </table>
      </Scroll>
      {days.length > 1 && (
        <div class="charts">
          <figure>
            <figcaption>Calls per day (errors in red)</figcaption>
            <BarChart
              label={`${name} calls per day: ${
                days.map((d) =>
                  `${d.day} ${counted(d.calls, "call")}, ${counted(d.errors, "error")}`
                )
                  .join("; ")
              }`}
              bars={days.map((d) => ({
                label: d.day,
                value: d.calls,
                part: d.errors,
                title: `${d.day}: ${counted(d.calls, "call")}, ${counted(d.errors, "error")}`,
              }))}
            />
          </figure>
          <figure>
            <figcaption>
              Latency per day: <span class="key p50">p50</span> <span class="key p95">p95</span>
              {" "}
              <span class="key p99">p99</span>
            </figcaption>
            <LineChart
              label={`${name} latency per day: ${
                days.map((d) => `${d.day} p50 ${d.p50Ms} ms, p95 ${d.p95Ms} ms, p99 ${d.p99Ms} ms`)
                  .join("; ")
              }`}
              labels={days.map((d) => d.day)}
              unit="ms"
              series={[
                { name: "p50", className: "p50", values: days.map((d) => d.p50Ms) },
                { name: "p95", className: "p95", values: days.map((d) => d.p95Ms) },
                { name: "p99", className: "p99", values: days.map((d) => d.p99Ms) },
              ]}
            />
          </figure>
        </div>
      )}
    </article>
  );
}

function windowWords(days: number): string {
  return days === 1 ? "24 hours" : `${days} days`;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function fmtInt(n: number): string {
  return n.toLocaleString("en-US");
}

/** "1 call", "1,200 calls". */
function counted(n: number, singular: string, pluralForm?: string): string {
  return plural(n, singular, { plural: pluralForm, shown: fmtInt(n) });
}

function fmtPct(n: number | null): string {
  return n === null ? "—" : `${n.toLocaleString("en-US", { maximumFractionDigits: 3 })}%`;
}

function fmtMs(n: number | null): string {
  return n === null ? "—" : `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })} ms`;
}

/** The status page is public, with no reader's zone: UTC, in words, named. */
function fmtTime(iso: string): string {
  return `${timeInWords(iso, "UTC")} UTC`;
}

const CSS = `
body{max-width:60rem;color:#1f2933;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}.scroll table{overflow-wrap:normal}.scroll td{white-space:nowrap}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.eyebrow{margin:0;color:#52606d;font-size:.9rem}
.muted{color:#52606d;font-size:.9rem}
.empty{color:#52606d;padding:1rem;border:1px dashed #cbd2d9;border-radius:8px}
.banner{display:flex;align-items:center;gap:.6rem;padding:.8rem 1rem;border-radius:8px;font-weight:600}
.banner .dot{width:.8rem;height:.8rem;border-radius:50%;background:currentColor}
.banner.met{background:#e3f9e5;color:#0e5814}.banner.missed{background:#ffe3e3;color:#8a041a}
.banner.measuring{background:#f0f4f8;color:#334e68}
.windows{display:flex;gap:.4rem;flex-wrap:wrap;margin:1rem 0}
.windows a{padding:.3rem .7rem;border:1px solid #cbd2d9;border-radius:999px;text-decoration:none}
.windows a[aria-current=page]{background:#1d4ed8;color:#fff;border-color:#1d4ed8}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem}
.card{border:1px solid #e4e7eb;border-radius:10px;padding:1rem;border-top:4px solid #9aa5b1}
.card.met{border-top-color:#2f8132}.card.missed{border-top-color:#cf1124}
.card h3{margin:0;font-size:1rem}.card p{margin:.3rem 0}
.figure{font-size:2rem;font-weight:700;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600}
.badge.met{background:#e3f9e5;color:#0e5814}.badge.missed{background:#ffe3e3;color:#8a041a}
.badge.measuring{background:#f0f4f8;color:#334e68}
.strip{display:flex;gap:2px;height:2.2rem;align-items:stretch}
.strip span{flex:1;border-radius:2px;min-width:2px}
.tick-ok{background:#3f9142}.tick-bad{background:#cf1124}.tick-none{background:#d9e2ec}
table{width:100%;font-variant-numeric:tabular-nums}
.scroll td.detail{font-size:.85rem;color:#52606d;white-space:normal;overflow-wrap:anywhere;min-width:14rem}
.panel{border:1px solid #e4e7eb;border-radius:10px;padding:1rem;margin:1rem 0}
.panel h3{margin-top:0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
figure{margin:0}figcaption{font-size:.85rem;color:#52606d}
.chart{width:100%;height:auto;display:block}
.chart .axis{stroke:#9aa5b1}.chart .bar{fill:#7b93db}.chart .bar-alarm{fill:#cf1124}
.chart .tick{font-size:11px;fill:#52606d}
.chart .target{stroke:#cf1124;stroke-dasharray:4 4}
.chart .peak-line{stroke:#cbd2d9;stroke-dasharray:4 3}
.chart .line{fill:none;stroke-width:2}
.p50 .line{stroke:#2f8132}.p50 .dot{fill:#2f8132}.p95 .line{stroke:#1d4ed8}.p95 .dot{fill:#1d4ed8}
.p99 .line{stroke:#9a3412}.p99 .dot{fill:#9a3412}
.key{font-weight:600}.key.p50{color:#2f8132}.key.p95{color:#1d4ed8}.key.p99{color:#9a3412}
.defs div{margin:.5rem 0}.defs dt{font-weight:600;text-transform:capitalize}.defs dd{margin:0}
`;

/** A window the page cannot show, with the ones it can. */
export function StatusProblemPage(props: { message: string; windows: readonly number[] }) {
  return (
    <Page title="Folio status">
      <h1>Service status</h1>
      <p role="alert">{props.message}</p>
      <p>
        Choose a window:{" "}
        {props.windows.map((d) => (
          <a key={d} href={`/status?days=${d}`} style="margin-right:.6rem">
            {windowWords(d)}
          </a>
        ))}
      </p>
    </Page>
  );
}
