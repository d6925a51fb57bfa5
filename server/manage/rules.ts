/**
 * Content rules in the management API: prices travel in US cents and are stored in micros (the
 * pure decision in server/licensing/ reads `priceMicros`); territories are stored upper-case.
 */
import type { Client } from "../../store/db.ts";
import { newId } from "../../store/ids.ts";
import { countRules, getRule, insertRule, listRules, updateRule } from "../../store/rules.ts";
import { AppError, notFound } from "../errors.ts";
import type { ContentRule } from "../licensing/mod.ts";
import { centsToMicros, microsToCents } from "../money.ts";
import { type RuleInput, ruleInputSchema } from "./schemas.ts";
import { parseInput } from "./validation.ts";

/** Most rules one publisher may have: every read evaluates all of them. */
export const MAX_RULES = 200;

/** A rule as the API shows it. */
export function presentRule(rule: ContentRule) {
  const { priceMicros, ...action } = rule.action;
  return {
    id: rule.id,
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
  patch: Partial<Pick<RuleInput, "priority" | "match" | "action">>,
): Promise<ContentRule> {
  const existing = await getRule(db, publisherId, id);
  if (!existing) throw notFound("Rule");
  const current = presentRule(existing);
  const merged = parseInput(ruleInputSchema, {
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
  return { id, priority: input.priority, match, action };
}
