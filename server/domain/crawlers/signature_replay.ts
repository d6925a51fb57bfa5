/**
 * A Web Bot Auth signature is a credential for one request (issue 28): once it has verified, its
 * replay key (its keyid and nonce, or the signature itself) is recorded in the store, and a second
 * request carrying it is refused, in this process or any other on the same store, until it
 * expires. Only verified signatures are recorded, so junk cannot fill the table.
 *
 * @module
 */
import type { Client } from "../../../store/db.ts";
import { firstUseOfSignature } from "../../../store/signature_replays.ts";
import { verifyWebBotAuth, type WebBotAuth, type WebBotAuthDeps } from "./web_bot_auth.ts";

/** What authentication needs: verification's deps and the store that remembers signatures. */
export interface AuthenticateDeps extends WebBotAuthDeps {
  store: { db: Client };
}

/** Sentence for a signature presented again (the dialect answers it InvalidSignature). */
export const REPLAYED =
  "the signature was already used: a Web Bot Auth signature authenticates one request, so sign " +
  "each request afresh with a new nonce";

/**
 * Verifies the request's signature and spends it: a verified signature seen before (on any
 * process of this store) is invalid. Use this wherever a signature pays or identifies the caller.
 */
export async function authenticateWebBotAuth(
  deps: AuthenticateDeps,
  req: Request,
): Promise<WebBotAuth> {
  const signature = await verifyWebBotAuth(deps, req);
  if (signature.kind !== "verified") return signature;
  const first = await firstUseOfSignature(deps.store.db, signature.replayKey, {
    expiresAt: signature.expires,
    now: deps.clock.now(),
  });
  return first ? signature : { kind: "invalid", code: "InvalidSignature", why: REPLAYED };
}
