/**
 * Content rules in the management API: prices travel in US cents and are stored in micros (the
 * pure decision in server/domain/licensing/ reads `priceMicros`); territories are stored upper-case.
 */
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  countRules,
  getRule,
  insertRule,
  listRules,
  reorderRules,
  updateRule,
} from "../../../store/rules.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import type { ContentRule } from "../../domain/licensing/mod.ts";
import { centsToMicros, microsToCents } from "../../platform/money.ts";
import { type RuleInput, ruleInputSchema } from "./schemas.ts";
import { parseInput } from "../../platform/validate.ts";
import { plural } from "../../platform/words.ts";

/** Most rules one publisher may have: every read evaluates all of them. */
export const MAX_RULES = 200;

/** A rule as the API shows it. */
export function presentRule(rule: ContentRule) {
  const { priceMicros, ...action } = rule.action;
  return {
    id: rule.id,
    name: rule.name ?? null,
    priority: rule.priority,
    match: rule.match,
    action: priceMicros === undefined
      ? action
      : { ...action, priceUsdCents: microsToCents(priceMicros) },
  };
}

/** The publisher's rules in evaluation order, as the API shows them. */
export async function listPresentedRules(db: Client, publisherId: string) {
  return (await listRules(db, publisherId)).map(presentRule);
}

/** Stores a new rule and returns it. */
export async function createRule(
  db: Client,
  publisherId: string,
  input: RuleInput,
  options: { now: Date },
): Promise<ContentRule> {
  if (await countRules(db, publisherId) >= MAX_RULES) {
    throw new AppError(409, "too_many_rules", `rules: a publisher may have at most ${MAX_RULES}`);
  }
  const rule = toStored(newId("rule"), input);
  await insertRule(db, publisherId, { ...rule, now: options.now });
  return rule;
}

/**
 * Applies a patch (each given part replaces that part) and validates the merged rule with the
 * same schema as a new one, so a patch cannot leave a rule that POST would refuse.
 */
export async function patchRule(
  db: Client,
  publisherId: string,
  id: string,
  patch: Partial<Pick<RuleInput, "name" | "priority" | "match" | "action">>,
): Promise<ContentRule> {
  const existing = await getRule(db, publisherId, id);
  if (!existing) throw notFound("Rule");
  const current = presentRule(existing);
  const merged = parseInput(ruleInputSchema, {
    name: patch.name === undefined ? current.name : patch.name,
    priority: patch.priority ?? current.priority,
    match: patch.match ?? current.match,
    action: patch.action ?? current.action,
  });
  const rule = toStored(id, merged);
  if (!await updateRule(db, publisherId, rule)) throw notFound("Rule");
  return rule;
}

function toStored(id: string, input: RuleInput): ContentRule {
  const match: ContentRule["match"] = {};
  if (input.match.path !== undefined) match.path = input.match.path;
  if (input.match.publishedWithinHours !== undefined) {
    match.publishedWithinHours = input.match.publishedWithinHours;
  }
  if (input.match.territories) {
    match.territories = [...new Set(input.match.territories.map((t) => t.toUpperCase()))];
  }
  const action: ContentRule["action"] = {};
  if (input.action.policy !== undefined) action.policy = input.action.policy;
  if (input.action.priceUsdCents !== undefined) {
    action.priceMicros = centsToMicros(input.action.priceUsdCents);
  }
  if (input.action.window) {
    // Stored normalised to UTC so every reader parses the same instant.
    action.window = {
      start: new Date(input.action.window.start).toISOString(),
      end: new Date(input.action.window.end).toISOString(),
    };
  }
  if (input.action.deny) action.deny = true;
  return {
    id,
    ...(input.name ? { name: input.name } : {}),
    priority: input.priority,
    match,
    action,
  };
}

/**
 * Puts the publisher's rules in the order of `ids` (their priorities become 10, 20, 30, ... in
 * one transaction); `ids` must be exactly the publisher's rule ids, else 400 saying what differs.
 */
export async function reorderPublisherRules(
  db: Client,
  publisherId: string,
  ids: readonly string[],
): Promise<void> {
  const result = await reorderRules(db, publisherId, ids);
  if (result.ok) return;
  const given = new Set(ids);
  const have = new Set(result.current);
  const missing = result.current.filter((id) => !given.has(id));
  const unknown = ids.filter((id) => !have.has(id));
  const parts = [
    missing.length ? `missing ${listed(missing)}` : "",
    unknown.length ? `not your rules: ${listed(unknown)}` : "",
  ].filter(Boolean);
  throw invalid(
    "ids",
    `must list each of your ${plural(result.current.length, "rule")} exactly once (${
      parts.join("; ")
    })`,
  );
}

function listed(ids: string[]): string {
  const shown = ids.slice(0, 5).join(", ");
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
}
