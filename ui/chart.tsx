/**
 * Small server-rendered SVG charts. Each is an image with a text alternative (role="img" and an
 * aria-label) and a <title> per mark for pointer users; the page beside it carries the numbers.
 */
import { dayInWords, monthInWords } from "../server/platform/local_time.ts";

const W = 600;

/**
 * A label's words: a calendar day ("2026-11-15", a UTC day) as "15 Nov 2026", a billing month
 * ("2026-11") as "November 2026", else as given.
 */
function tick(label: string | undefined): string {
  if (label && /^\d{4}-\d{2}-\d{2}$/.test(label)) return dayInWords(label);
  if (label && /^\d{4}-\d{2}$/.test(label)) return monthInWords(label);
  return label ?? "";
}

/** One bar: its label (e.g. a day), its value, and an optional part of it drawn on top. */
export interface Bar {
  label: string;
  value: number;
  /** A part of `value` drawn in the alarm color (e.g. errors among calls). */
  part?: number;
  title: string;
}

/** Vertical bars over time, with an optional highlighted part per bar. */
export function BarChart(props: { bars: Bar[]; label: string; height?: number }) {
  const h = props.height ?? 120;
  const max = Math.max(1, ...props.bars.map((b) => b.value));
  const n = Math.max(1, props.bars.length);
  const slot = W / n;
  const bw = Math.max(1, slot * 0.8);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${h + 18}`}
      role="img"
      aria-label={props.label}
      preserveAspectRatio="none"
    >
      <line x1="0" y1={h} x2={W} y2={h} class="axis" />
      {props.bars.map((b, i) => {
        const bh = (b.value / max) * h;
        const ph = ((b.part ?? 0) / max) * h;
        return (
          <g key={b.label}>
            <title>{b.title}</title>
            <rect x={i * slot} y={h - bh} width={bw} height={bh} class="bar" />
            {ph > 0 && <rect x={i * slot} y={h - ph} width={bw} height={ph} class="bar-alarm" />}
          </g>
        );
      })}
      <text x="0" y={h + 14} class="tick">{tick(props.bars[0]?.label)}</text>
      <text x={W} y={h + 14} class="tick" text-anchor="end">{tick(props.bars.at(-1)?.label)}</text>
    </svg>
  );
}

/** One line of a line chart: a name, a class for its color, and a value (or gap) per point. */
export interface Series {
  name: string;
  className: string;
  values: (number | null)[];
}

/** Lines over shared labels, with an optional dashed target line. */
export function LineChart(
  props: {
    labels: string[];
    series: Series[];
    label: string;
    unit: string;
    target?: { value: number; name: string };
    height?: number;
  },
) {
  const h = props.height ?? 140;
  const values = props.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const peak = Math.max(0, ...values);
  // Headroom above the highest point; the scale's top is never labelled, only the peak is, so
  // the axis never names a value no day had (37 calls drew "41 calls" at the top).
  const max = Math.max(1, peak, props.target?.value ?? 0) * 1.1;
  const n = props.labels.length;
  const x = (i: number) => (n <= 1 ? W / 2 : (i / (n - 1)) * W);
  const y = (v: number) => h - (v / max) * h;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${h + 18}`} role="img" aria-label={props.label}>
      <line x1="0" y1={h} x2={W} y2={h} class="axis" />
      {props.target && (
        <g>
          <title>{`${props.target.name}: ${props.target.value} ${props.unit}`}</title>
          <line
            x1="0"
            y1={y(props.target.value)}
            x2={W}
            y2={y(props.target.value)}
            class="target"
          />
        </g>
      )}
      {props.series.map((s) => (
        <g key={s.name} class={s.className}>
          <path d={pathOf(s.values, x, y)} class="line" />
          {s.values.map((v, i) =>
            v === null ? null : (
              <circle key={i} cx={x(i)} cy={y(v)} r="3" class="dot">
                <title>{`${props.labels[i]} ${s.name}: ${v} ${props.unit}`}</title>
              </circle>
            )
          )}
        </g>
      ))}
      <text x="0" y={h + 14} class="tick">{tick(props.labels[0])}</text>
      <text x={W} y={h + 14} class="tick" text-anchor="end">{tick(props.labels.at(-1))}</text>
      {values.length > 0 && <Peak y={y(peak)} text={`highest: ${round(peak)} ${props.unit}`} />}
    </svg>
  );
}

/** A dashed line across the chart at the highest value, and its words above it on the left. */
function Peak(props: { y: number; text: string }) {
  return (
    <g class="peak">
      <line x1="0" y1={props.y} x2={W} y2={props.y} class="peak-line" />
      <text x="4" y={Math.max(11, props.y - 4)} class="tick">{props.text}</text>
    </g>
  );
}

/** A figure as the chart writes it: whole numbers as they are, others to one decimal. */
function round(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** An SVG path through the points, broken where a value is missing. */
function pathOf(
  values: (number | null)[],
  x: (i: number) => number,
  y: (v: number) => number,
): string {
  let d = "";
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    pen = true;
  });
  return d;
}

/** One stacked bar: its label, and a value per series (in the order of the chart's `series`). */
export interface Stack {
  label: string;
  values: number[];
}

/** Stacked vertical bars (e.g. calls per day by surface), with a legend of the series. */
export function StackedBarChart(
  props: {
    stacks: Stack[];
    series: { name: string; className: string }[];
    label: string;
    /** The words for the highest stack's total (e.g. "busiest day: 12 calls"). */
    peak: (total: number) => string;
  },
) {
  const h = 120;
  const peak = Math.max(0, ...props.stacks.map((s) => s.values.reduce((t, v) => t + v, 0)));
  // Headroom above the highest bar, which alone is labelled (see LineChart).
  const max = Math.max(1, peak) * 1.1;
  const slot = W / Math.max(1, props.stacks.length);
  const bw = Math.max(1, slot * 0.8);
  return (
    <figure class="stacked">
      <svg class="chart" viewBox={`0 0 ${W} ${h + 18}`} role="img" aria-label={props.label}>
        <line x1="0" y1={h} x2={W} y2={h} class="axis" />
        {props.stacks.map((stack, i) => {
          let top = h;
          return (
            <g key={stack.label}>
              <title>
                {`${tick(stack.label)}: ${
                  props.series.map((s, j) => `${s.name} ${stack.values[j] ?? 0}`).join(", ")
                }`}
              </title>
              {stack.values.map((v, j) => {
                const bh = (v / max) * h;
                top -= bh;
                return v > 0
                  ? (
                    <rect
                      key={j}
                      x={i * slot}
                      y={top}
                      width={bw}
                      height={bh}
                      class={props.series[j]?.className}
                    />
                  )
                  : null;
              })}
            </g>
          );
        })}
        <text x="0" y={h + 14} class="tick">{tick(props.stacks[0]?.label)}</text>
        <text x={W} y={h + 14} class="tick" text-anchor="end">
          {tick(props.stacks.at(-1)?.label)}
        </text>
        {peak > 0 && <Peak y={h - (peak / max) * h} text={props.peak(peak)} />}
      </svg>
      <figcaption>
        <Legend items={props.series.map((s) => [s.name, s.className])} />
      </figcaption>
    </figure>
  );
}

/** A chart's legend: each series' name beside a swatch of its color class. */
export function Legend(props: { items: [name: string, className: string][] }) {
  return (
    <span class="legend">
      {props.items.map(([name, className]) => (
        <span key={name}>
          <svg width="12" height="12" aria-hidden="true" class="swatch-svg">
            <rect width="12" height="12" class={className} />
          </svg>{" "}
          {name}
        </span>
      ))}
    </span>
  );
}

/** One horizontal bar: its label (e.g. a prompt), its value, and the words of its tooltip. */
export interface HorizontalBar {
  label: string;
  value: number;
  title: string;
  /** How the value is written beside its bar (e.g. "$1.48"); the value itself by default. */
  valueText?: string;
}

/**
 * Horizontal bars, largest first as given (e.g. the most frequent reader intents): the label
 * on the left (shortened when long; the full text is in the mark's title and the page's table),
 * the bar, and its value.
 */
export function HorizontalBarChart(
  props: { bars: HorizontalBar[]; label: string; labelChars?: number },
) {
  const row = 22;
  const labelW = 290;
  const valueW = 44;
  const chars = props.labelChars ?? 44;
  const h = Math.max(1, props.bars.length) * row;
  const max = Math.max(1, ...props.bars.map((b) => b.value));
  const room = W - labelW - valueW;
  return (
    <svg class="chart hbars" viewBox={`0 0 ${W} ${h}`} role="img" aria-label={props.label}>
      <line x1={labelW} y1="0" x2={labelW} y2={h} class="axis" />
      {props.bars.map((b, i) => {
        const bw = Math.max(1, (b.value / max) * room);
        const y = i * row;
        const text = b.label.length > chars ? `${b.label.slice(0, chars - 1)}…` : b.label;
        return (
          <g key={`${i}:${b.label}`}>
            <title>{b.title}</title>
            <text x={labelW - 6} y={y + row / 2 + 4} class="tick" text-anchor="end">{text}</text>
            <rect x={labelW} y={y + 3} width={bw} height={row - 6} class="bar" />
            <text x={labelW + bw + 4} y={y + row / 2 + 4} class="tick">
              {b.valueText ?? String(b.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
