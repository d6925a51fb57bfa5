/**
 * ListTasks (A2A v1.0 §3.1.4): its parameters checked before the SDK sees them, and the page
 * token. v0.3 has no JSON-RPC binding for listing (`tasks/list` was gRPC and REST only), so only
 * the v1.0 name is served. Tasks come most recently updated first (the row's `updated_at`, written
 * with each status change); the token is the last task's (updated_at, id), opaque to clients.
 */
import { ParamsError } from "./skills.ts";
import { type StateName, stateName } from "./states.ts";
import { TaskState } from "@a2a-js/sdk";

/** Where the previous page ended. */
export interface Cursor {
  updatedAt: number;
  id: string;
}

/** Page size without `pageSize`, and its bounds (A2A v1.0 ListTasksRequest.page_size). */
export const PAGE = { default: 50, min: 1, max: 100 } as const;

const KEYS = new Set([
  "tenant",
  "contextId",
  "status",
  "pageSize",
  "pageToken",
  "historyLength",
  "statusTimestampAfter",
  "includeArtifacts",
]);

/** The params of a ListTasks call, checked and normalised for the SDK; throws ParamsError. */
export function parseListTasks(params: Record<string, unknown>): Record<string, unknown> {
  const extra = Object.keys(params).find((k) => !KEYS.has(k));
  if (extra !== undefined) {
    throw new ParamsError(`${extra.slice(0, 64)}: is not a ListTasks parameter`);
  }
  const out: Record<string, unknown> = {};
  const { contextId, status, pageSize, pageToken, historyLength } = params;
  if (contextId !== undefined && contextId !== "") {
    if (typeof contextId !== "string" || contextId.length > 200) {
      throw new ParamsError("contextId: must be a string of at most 200 characters");
    }
    out.contextId = contextId;
  }
  // ProtoJSON takes an enum by name or by number (TASK_STATE_UNSPECIFIED is 0: no filter).
  const unspecified = ["", "TASK_STATE_UNSPECIFIED", TaskState.TASK_STATE_UNSPECIFIED];
  if (status !== undefined && !unspecified.includes(status as string)) {
    const name = typeof status === "string"
      ? stateOf(status)
      : Number.isInteger(status)
      ? stateName(status as TaskState)
      : null;
    if (!name) {
      throw new ParamsError(
        'status: must be a task state, e.g. "TASK_STATE_COMPLETED" or "TASK_STATE_WORKING"',
      );
    }
    out.status = stateEnumName(name);
  }
  if (pageSize !== undefined) {
    if (!Number.isInteger(pageSize) || Number(pageSize) < PAGE.min || Number(pageSize) > PAGE.max) {
      throw new ParamsError(`pageSize: must be an integer from ${PAGE.min} to ${PAGE.max}`);
    }
    out.pageSize = pageSize;
  }
  if (pageToken !== undefined && pageToken !== "") {
    if (typeof pageToken !== "string" || !decodePageToken(pageToken)) {
      throw new ParamsError(BAD_TOKEN);
    }
    out.pageToken = pageToken;
  }
  if (historyLength !== undefined) {
    if (!Number.isInteger(historyLength) || Number(historyLength) < 0) {
      throw new ParamsError("historyLength: must be an integer of 0 or more");
    }
    out.historyLength = historyLength;
  }
  const after = params.statusTimestampAfter;
  if (after !== undefined && after !== "") {
    if (typeof after !== "string" || !ISO.test(after) || Number.isNaN(Date.parse(after))) {
      throw new ParamsError(
        'statusTimestampAfter: must be an ISO 8601 instant, e.g. "2026-11-15T12:00:00Z"',
      );
    }
    out.statusTimestampAfter = after;
  }
  if (params.includeArtifacts !== undefined) {
    if (typeof params.includeArtifacts !== "boolean") {
      throw new ParamsError("includeArtifacts: must be true or false");
    }
    out.includeArtifacts = params.includeArtifacts;
  }
  return out;
}

/** The wording of a page token that is not one of ours. */
export const BAD_TOKEN =
  "pageToken: is not a token from a previous ListTasks answer (send it back unchanged, or leave it out for the first page)";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The opaque token of the page after `c`. */
export function encodePageToken(c: Cursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([c.updatedAt, c.id]));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The cursor in a token, or null when the token is not one of ours. */
export function decodePageToken(token: string): Cursor | null {
  if (token.length > 400 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  try {
    const bin = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
    const v = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0))));
    if (
      Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && v[0] >= 0 &&
      typeof v[1] === "string" && v[1].length > 0 && v[1].length <= 200
    ) {
      return { updatedAt: v[0], id: v[1] };
    }
  } catch {
    // Not base64 or not JSON: not ours.
  }
  return null;
}

/** A state by its v1.0 enum name (or, leniently, its v0.3 name). */
function stateOf(s: string): StateName | null {
  if (s in TaskState && typeof TaskState[s as keyof typeof TaskState] === "number") {
    return stateName(TaskState[s as keyof typeof TaskState] as TaskState);
  }
  return stateName(
    TaskState[`TASK_STATE_${s.toUpperCase().replace("-", "_")}` as keyof typeof TaskState] as
      | TaskState
      | undefined,
  );
}

function stateEnumName(name: StateName): keyof typeof TaskState {
  return `TASK_STATE_${name.toUpperCase().replace("-", "_")}` as keyof typeof TaskState;
}
