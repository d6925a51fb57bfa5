/** Usage: calls, reads and metered spend per publisher and per day over 7, 30 or 90 days. */
import type { z } from "zod";
import type { usageSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { BarChart, HorizontalBarChart, Legend, LineChart } from "../chart.tsx";
import { Scroll } from "../console/scroll.tsx";
import { count, Figure, WindowTabs } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";
import { plural } from "../../server/platform/words.ts";

/** GET /api/marketplace/usage. */
export type UsageView = z.output<typeof usageSchema>;

/** What the usage page shows. */
export interface UsageProps {
  who: BuyerWho;
  usage: UsageView;
  windows: readonly number[];
  problem?: string | null;
}

/** GET /buyer/usage. */
export function UsagePage(props: UsageProps) {
  const u = props.usage;
  const calls = u.daily.reduce((t, d) => t + d.calls, 0);
  const reads = u.daily.reduce((t, d) => t + d.reads, 0);
  const spend = (id: string) => u.metered.find((m) => m.publisherId === id)?.spendUsdCents ?? 0;
  const span = `${u.daily[0]?.day} to ${u.daily.at(-1)?.day}`;
  return (
    <BuyerShell who={props.who} section="usage" title="Usage" problem={props.problem}>
      <WindowTabs base="/buyer/usage" days={u.days} windows={props.windows} />
      <div class="grid">
        <Figure value={count(calls)} label={`calls in the last ${u.days} days`} />
        <Figure value={count(reads)} label="article reads" />
        <Figure value={formatUsd(u.meteredTotalCents)} label="metered spend" />
      </div>
      <p class="hint">
        Metered spend: what your reads and agent payments cost in these days (with Folio's fee on
        agent payments), by the day of the read, added up exactly and rounded once to the cent.
        License fees are on your <a href="/buyer/statements">statements</a>.
      </p>
      {u.usage.length === 0
        ? (
          <section class="card">
            <h2>No usage in these {u.days} days</h2>
            <p>
              Calls appear here once your agents use your key (or an MCP client you claimed) on a
              publisher's MCP server, REST API or A2A server.{" "}
              <a href="/buyer/catalog">Pick a publisher</a> and paste its connection snippet.
            </p>
          </section>
        )
        : (
          <>
            <section class="card" aria-labelledby="daily-title">
              <h2 id="daily-title">Per day</h2>
              <h3>Calls and article reads</h3>
              <LineChart
                label={`Calls and article reads per day, ${span}`}
                unit="calls"
                labels={u.daily.map((d) => d.day)}
                series={[
                  { name: "calls", className: "l0", values: u.daily.map((d) => d.calls) },
                  { name: "reads", className: "l1", values: u.daily.map((d) => d.reads) },
                ]}
              />
              <Legend items={[["calls", "s0"], ["article reads", "s1"]]} />
              <h3>Metered spend (US cents)</h3>
              <BarChart
                label={`Metered spend per day in US cents, ${span}`}
                bars={u.daily.map((d) => ({
                  label: d.day,
                  // Cents, not dollars: the chart's scale starts at 1, and a day's spend is often less.
                  value: d.spendUsdCents,
                  title: `${d.day}: ${formatUsd(d.spendUsdCents)}`,
                }))}
              />
            </section>
            <section class="card" aria-labelledby="publishers-title">
              <h2 id="publishers-title">Per publisher</h2>
              <h3>Calls</h3>
              <HorizontalBarChart
                label="Calls per publisher"
                bars={u.usage.map((p) => ({
                  label: p.publisherName,
                  value: p.calls,
                  title: `${p.publisherName}: ${plural(p.calls, "call")}`,
                }))}
              />
              <h3>Article reads</h3>
              <HorizontalBarChart
                label="Article reads per publisher"
                bars={u.usage.map((p) => ({
                  label: p.publisherName,
                  value: p.reads,
                  title: `${p.publisherName}: ${p.reads} article reads`,
                }))}
              />
              <h3>Metered spend (US cents)</h3>
              <HorizontalBarChart
                label="Metered spend per publisher in US cents"
                bars={u.usage.map((p) => ({
                  label: p.publisherName,
                  value: spend(p.publisherId),
                  title: `${p.publisherName}: ${formatUsd(spend(p.publisherId))}`,
                }))}
              />
              <Scroll label="Usage per publisher">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Publisher</th>
                      <th scope="col" class="num">Calls</th>
                      <th scope="col" class="num">Reads</th>
                      <th scope="col" class="num">Charged reads</th>
                      <th scope="col" class="num">Metered spend</th>
                    </tr>
                  </thead>
                  <tbody>
                    {u.usage.map((p) => (
                      <tr key={p.publisherId}>
                        <td>
                          <a href={`/buyer/catalog/${encodeURIComponent(p.publisherId)}`}>
                            {p.publisherName}
                          </a>
                        </td>
                        <td class="num">{count(p.calls)}</td>
                        <td class="num">{count(p.reads)}</td>
                        <td class="num">{count(p.paywalls)}</td>
                        <td class="num">{formatUsd(spend(p.publisherId))}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
            </section>
          </>
        )}
    </BuyerShell>
  );
}
