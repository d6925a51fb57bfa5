/**
 * OpenTelemetry (docs/OPERATIONS.md "Telemetry"). Deno exports traces, metrics and logs over OTLP
 * when OTEL_DENO=true and the standard OTEL_* variables point at a collector; it traces every
 * Deno.serve request, fetch and Deno.cron itself. This module adds Folio's own spans and metrics
 * through @opentelemetry/api, which Deno wires to its exporter; without OTEL_DENO they are no-ops.
 */
import {
  type Attributes,
  INVALID_SPAN_CONTEXT,
  metrics,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

const tracer = trace.getTracer("folio");
/**
 * Whether Deno exports telemetry (config.ts `telemetryExport`, set by the server at start). When it
 * does not, a span is a no-op that still costs its context and promise on every read and charge,
 * so `inSpan` hands out one span that records nothing instead. Until told, spans are made.
 */
let exporting = true;
const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Tells this module whether Deno exports telemetry (the server's config, at start). */
export function setTelemetryExport(on: boolean): void {
  exporting = on;
}
const meter = metrics.getMeter("folio");

/** Folio's metrics; attributes are low-cardinality (surface, outcome, status), never ids. */
export const meters = {
  calls: meter.createCounter("folio.calls", {
    description: "Agent-surface calls answered, by surface and status (ok, error, trace)",
  }),
  decisions: meter.createCounter("folio.decisions", {
    description: "Access decisions by surface, use and outcome",
  }),
  charges: meter.createCounter("folio.charges", {
    description: "Charge attempts by surface and result (charged, duplicate, capped)",
  }),
  chargedMicros: meter.createCounter("folio.charged", {
    description: "Amount charged to buyers",
    unit: "µUSD",
  }),
  searchDuration: meter.createHistogram("folio.search.duration", {
    description: "Time to rank a search, by surface and mode",
    unit: "ms",
  }),
  ingestedUrls: meter.createCounter("folio.ingest.urls", {
    description: "URLs an ingestion job finished, by result (ingested, unchanged, failed)",
  }),
};

/** Runs `fn` in a span named `name`; a throw marks the span as an error and is rethrown. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  if (!exporting) return fn(NOT_RECORDING);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the span of the request being served (Deno's), if telemetry is on. */
export function annotateRequest(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
