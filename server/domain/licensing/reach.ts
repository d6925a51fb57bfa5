/**
 * The reach gate: who may reach a publisher's surface at all, before any article is asked for.
 * Beside `decide()` and pure like it: the publisher's toggles and domain, the surface, and the
 * kind of credential the request presents (checked for validity after the gate lets it through).
 * Every surface asks here, and the catalog, cards and pages describe access from the same answer.
 *
 * @module
 */
import type { Publisher } from "../../../store/publishers.ts";

/** The surfaces the gate guards. */
export type ReachSurface = "rest" | "mcp" | "a2a" | "landing";

/** What a request presents, before it is verified: nothing, a buyer key, or an access token. */
export type Presented = "none" | "buyer_key" | "access_token" | "license_token";

/**
 * Why a surface refuses before any read:
 * - `surface_off`: the publisher has not enabled this surface (A2A);
 * - `auth_required`: the publisher requires a credential (Require auth, on MCP and A2A);
 * - `rest_not_public`: anonymous REST needs public REST on and a custom domain (docs/SPEC.md
 *   "Publisher REST API"); a buyer key always reaches REST;
 * - `credential_not_accepted`: this surface takes no credential of that kind (REST and the landing
 *   path take buyer keys only; access tokens are bound to a publisher's MCP and A2A servers).
 * The landing path (the publisher's own pages, NLWeb ask) is open to anyone without a credential.
 */
export type Refusal =
  | "surface_off"
  | "auth_required"
  | "rest_not_public"
  | "credential_not_accepted";

/** The publisher facts the gate reads. */
export type ReachFacts = Pick<Publisher, "toggles" | "customDomain">;

/** Null when the request may go on to verify its credential and be served; else why not. */
export function reach(p: ReachFacts, surface: ReachSurface, presented: Presented): Refusal | null {
  switch (surface) {
    case "rest":
      if (presented === "access_token") return "credential_not_accepted";
      if (presented === "none" && !(p.toggles.publicRest && p.customDomain !== null)) {
        return "rest_not_public";
      }
      return null;
    case "a2a":
      return p.toggles.a2a ? credentialRequired(p, presented) : "surface_off";
    case "mcp":
      return credentialRequired(p, presented);
    case "landing":
      return presented === "access_token" ? "credential_not_accepted" : null;
  }
}

/** Require auth (MCP installs and A2A) refuses callers who present nothing. */
function credentialRequired(p: ReachFacts, presented: Presented): Refusal | null {
  return presented === "none" && p.toggles.requireAuth ? "auth_required" : null;
}

/** True when the surface is on for this publisher (some credential may still be needed). */
export function offered(p: ReachFacts, surface: ReachSurface): boolean {
  return reach(p, surface, "buyer_key") === null || reach(p, surface, "access_token") === null;
}

/** True when the surface serves callers who present no credential. */
export function openToAnonymous(p: ReachFacts, surface: ReachSurface): boolean {
  return reach(p, surface, "none") === null;
}
