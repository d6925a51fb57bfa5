/** A dispute decision form as the API's decision body (the console and the operator's page). */
import { type Fields, numeric, optional } from "./forms.ts";
import { usdToMicros } from "../../platform/money.ts";

/** accept: an amount in USD (empty: in full) and an optional note; refuse: the reason. */
export function decisionOf(action: "accept" | "refuse", f: Fields): Record<string, unknown> {
  if (action === "refuse") return { decision: "refuse", reason: optional(f, "reason") ?? "" };
  const amount = numeric(f, "amountUsd");
  return {
    decision: "accept",
    // A number the API checks against the disputed total; text goes on as it was, for the
    // API to name the problem.
    amountUsdMicros: typeof amount === "number" && amount >= 0 && amount < 1e9
      ? usdToMicros(amount)
      : amount,
    reason: optional(f, "reason"),
  };
}
