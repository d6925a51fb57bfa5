/** A small leveled logger writing one line per event to stderr. */
import { type Clock, systemClock } from "./clock.ts";
import type { LogFormat, LogLevel } from "./config.ts";

/** Where the service reports what it does. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger that drops events below `level`; `sink` defaults to stderr. `json` writes one object
 * per line ({time, level, msg, ...fields}) for collectors; with OTEL_DENO on, Deno also exports
 * each line as an OpenTelemetry log record.
 */
export function createLogger(
  level: LogLevel,
  sink: (line: string) => void = (line) => console.error(line),
  clock: Clock = systemClock,
  format: LogFormat = "text",
): Logger {
  const emit = (at: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const time = clock.now().toISOString();
    if (format === "json") {
      sink(JSON.stringify({ ...fields, time, level: at, msg }));
      return;
    }
    const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : "";
    sink(`${time} ${at.toUpperCase()} ${msg}${extra}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** A logger that keeps lines in memory, for tests that check what was (not) logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", (l) => lines.push(l)), { lines });
}
