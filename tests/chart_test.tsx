/** The charts' scale words agree with the figures beside them (issue 34: "41 calls" beside 37). */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { LineChart, StackedBarChart } from "../ui/chart.tsx";

/** The words written on a chart (its tick texts). */
function ticks(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*class="tick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

Deno.test("a line chart names its highest value, never the scale's headroom", () => {
  const svg = renderToString(
    <LineChart
      label="Calls per day"
      unit="calls"
      labels={["2026-11-14", "2026-11-15", "2026-11-16"]}
      series={[
        { name: "calls", className: "l0", values: [0, 37, 0] },
        { name: "reads", className: "l1", values: [0, 12, null] },
      ]}
    />,
  );
  assert.deepEqual(ticks(svg), ["14 Nov 2026", "16 Nov 2026", "highest: 37 calls"]);
  assert.doesNotMatch(svg, /41/);
  // The peak's line is drawn where the highest point is.
  const peakY = /class="peak-line"[^>]*y1="([\d.]+)"|y1="([\d.]+)"[^>]*class="peak-line"/.exec(
    svg,
  )!;
  const dotY = [...svg.matchAll(/<circle[^>]*cy="([\d.]+)"/g)].map((m) => Number(m[1]));
  assert.equal(Number(peakY[1] ?? peakY[2]), Math.min(...dotY));
});

Deno.test("a stacked chart names its highest total in the page's words; an empty one names none", () => {
  const chart = (values: number[][]) =>
    renderToString(
      <StackedBarChart
        label="Calls per day by surface"
        series={[{ name: "mcp", className: "s0" }, { name: "rest", className: "s1" }]}
        stacks={values.map((v, i) => ({ label: `day ${i + 1}`, values: v }))}
        peak={(n) => `busiest day: ${n} calls`}
      />,
    );
  assert.deepEqual(ticks(chart([[1, 2], [30, 7]])), ["day 1", "day 2", "busiest day: 37 calls"]);
  assert.deepEqual(ticks(chart([[0, 0]])), ["day 1", "day 1"]);
});

Deno.test("a latency chart writes its highest value to one decimal", () => {
  const svg = renderToString(
    <LineChart
      label="Latency"
      unit="ms"
      labels={["a", "b"]}
      series={[{ name: "p95", className: "p95", values: [12.34, 412.26] }]}
    />,
  );
  assert.ok(ticks(svg).includes("highest: 412.3 ms"));
});

Deno.test("a chart over billing months names them in words, at its ends and in each title", () => {
  const svg = renderToString(
    <StackedBarChart
      label="Earnings per month"
      series={[{ name: "Metered", className: "s0" }]}
      stacks={["2026-10", "2026-11"].map((label) => ({ label, values: [1] }))}
      peak={(n) => `best month: ${n}`}
    />,
  );
  assert.deepEqual(ticks(svg), ["October 2026", "November 2026", "best month: 1"]);
  assert.match(svg, /<title>November 2026: Metered 1<\/title>/);
  assert.doesNotMatch(svg.replace(/<[^>]*>/g, " "), /\b20\d\d-\d\d\b/);
});
