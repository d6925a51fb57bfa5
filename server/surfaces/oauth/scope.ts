/**
 * Scopes (docs/SPEC.md "Authentication" 8 leaves them open): one scope, `mcp`, grants the publisher's
 * MCP tools; what a call may read is decided by the licence, not by the scope.
 */
import { OAuthError } from "./errors.ts";

/** Every scope this server grants. */
export const SCOPES = ["mcp"];

/** The granted scope for a requested one (absent means all); unknown scopes are refused. */
export function parseScope(requested: string | null, allowed: string = SCOPES.join(" ")): string {
  if (requested === null || requested.trim() === "") return allowed;
  const have = new Set(allowed.split(" ").filter(Boolean));
  const want = [...new Set(requested.split(" ").filter(Boolean))];
  const extra = want.filter((s) => !have.has(s));
  if (extra.length) {
    throw new OAuthError("invalid_scope", `scope: "${extra[0]}" is not granted here`);
  }
  return want.join(" ");
}
