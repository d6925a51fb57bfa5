/**
 * Who called, as the traffic chart and the calls filter group it (issue 34; TollBit and
 * Cloudflare AI Crawl Control show traffic per crawler): a crawler by its family and operator, a
 * Web Bot Auth agent by its host, a buyer or OAuth client by name, the publisher's playground, and
 * everyone else as anonymous (store/call_list.ts AGENT_KEY_SQL; an address is never shown).
 */
import type { Client } from "../../../store/db.ts";
import { CRAWLERS } from "../../domain/crawlers/crawlers.ts";
import { describeCallers } from "./callers.ts";

/** A caller group: the key to filter by, its name for people and its kind. */
export interface Agent {
  key: string;
  name: string;
  kind: "crawler" | "agent" | "buyer" | "oauth" | "publisher" | "anonymous";
}

const OPERATORS = new Map(CRAWLERS.map((c) => [c.family.toLowerCase(), c.operator]));

/** The agent key of a logged identity (the same grouping as AGENT_KEY_SQL). */
export function agentKey(identity: string | null | undefined): string {
  if (!identity || identity.startsWith("ip:") || identity.startsWith("sess:")) return "anonymous";
  return identity;
}

/** Names every agent key in one lookup per kind of caller. */
export async function describeAgents(
  db: Client,
  keys: readonly string[],
): Promise<(key: string) => Agent> {
  const callerOf = await describeCallers(db, keys);
  return (key) => {
    const [prefix, ...rest] = key.split(":");
    const value = rest.join(":");
    switch (prefix) {
      case "crawler": {
        const operator = OPERATORS.get(value.toLowerCase());
        return { key, kind: "crawler", name: operator ? `${value} (${operator})` : value };
      }
      case "agent":
        return { key, kind: "agent", name: `Signed agent ${value}` };
      case "publisher":
        return { key, kind: "publisher", name: "Your playground" };
      case "buyer": {
        const c = callerOf(key);
        const name = c.kind === "buyer" ? c.name : null;
        return { key, kind: "buyer", name: name ? `Buyer ${name}` : `Buyer ${value}` };
      }
      case "oauth": {
        const c = callerOf(key);
        const name = c.kind === "oauth" ? c.clientName : null;
        return { key, kind: "oauth", name: name ? `App ${name}` : `App ${value}` };
      }
      default:
        return { key, kind: "anonymous", name: "Anonymous" };
    }
  };
}
