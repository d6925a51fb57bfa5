/**
 * A2A task states and their legal transitions (A2A v1.0 §4.1.3 TaskState; v0.3 §6.3). Terminal
 * states (completed, failed, canceled, rejected) never change again; interrupted states
 * (input-required, auth-required) resume through working or end. Folio stores the v0.3 names.
 */
import { TaskState } from "@a2a-js/sdk";

/** A task state by its v0.3 wire name (also our stored form). */
export type StateName =
  | "submitted"
  | "working"
  | "input-required"
  | "auth-required"
  | "completed"
  | "failed"
  | "canceled"
  | "rejected";

/** States after which a task never changes. */
export const TERMINAL: ReadonlySet<StateName> = new Set([
  "completed",
  "failed",
  "canceled",
  "rejected",
]);

const NEXT: Record<StateName, readonly StateName[]> = {
  submitted: ["working", "rejected", "failed", "canceled"],
  working: ["completed", "failed", "canceled", "rejected", "input-required", "auth-required"],
  "input-required": ["working", "failed", "canceled", "rejected"],
  "auth-required": ["working", "failed", "canceled", "rejected"],
  completed: [],
  failed: [],
  canceled: [],
  rejected: [],
};

/** True when a task may move from `from` to `to` (staying put is allowed unless terminal). */
export function canTransition(from: StateName, to: StateName): boolean {
  if (from === to) return !TERMINAL.has(from);
  return NEXT[from].includes(to);
}

const BY_ENUM: Record<number, StateName> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
};

/** The v0.3 name of an SDK (v1.0) task state; null for unspecified or unknown values. */
export function stateName(state: TaskState | undefined): StateName | null {
  return state === undefined ? null : BY_ENUM[state] ?? null;
}

/** The SDK (v1.0) enum value of a state name. */
export function stateEnum(name: StateName): TaskState {
  const found = Object.entries(BY_ENUM).find(([, n]) => n === name);
  return Number(found![0]) as TaskState;
}
