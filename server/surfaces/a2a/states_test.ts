import assert from "node:assert/strict";
import { canTransition, stateEnum, type StateName, stateName, TERMINAL } from "./states.ts";

const ALL: StateName[] = [
  "submitted",
  "working",
  "input-required",
  "auth-required",
  "completed",
  "failed",
  "canceled",
  "rejected",
];

Deno.test("canTransition() never moves a task out of a terminal state", () => {
  for (const from of TERMINAL) {
    for (const to of ALL) assert.equal(canTransition(from, to), false, `${from} → ${to}`);
  }
});

Deno.test("canTransition() allows the task life Folio uses and refuses shortcuts", () => {
  const legal: [StateName, StateName][] = [
    ["submitted", "working"],
    ["working", "completed"],
    ["working", "rejected"],
    ["working", "failed"],
    ["working", "auth-required"],
    ["auth-required", "working"],
    ["auth-required", "canceled"],
    ["input-required", "canceled"],
    ["submitted", "canceled"],
    ["working", "working"],
  ];
  for (const [from, to] of legal) assert.equal(canTransition(from, to), true, `${from} → ${to}`);
  const illegal: [StateName, StateName][] = [
    ["submitted", "completed"],
    ["auth-required", "completed"],
    ["input-required", "auth-required"],
    ["working", "submitted"],
  ];
  for (const [from, to] of illegal) assert.equal(canTransition(from, to), false, `${from} → ${to}`);
});

Deno.test("stateName() and stateEnum() map every state both ways", () => {
  for (const s of ALL) assert.equal(stateName(stateEnum(s)), s);
  assert.equal(stateName(undefined), null);
  assert.equal(stateName(0), null);
});
