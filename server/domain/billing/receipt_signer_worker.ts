/**
 * The receipt signing thread (server/domain/billing/receipt_signing.ts): signs batches of
 * signing inputs with the keys the serving thread hands it, so the serving thread spends no time
 * on Ed25519. A message it cannot handle ends it with an error; the pool then signs what was
 * pending itself.
 */
/// <reference lib="deno.worker" />
import { type PrivateJwk, signCompact, signingKeyOf } from "./receipt_jws.ts";

/** What the pool sends: new keys by kid, then the inputs to sign. `crash` ends the thread. */
export interface SignBatch {
  keys?: Record<string, PrivateJwk>;
  items?: { id: number; kid: string; input: string }[];
  crash?: true;
}
/** What the thread answers: one JWS per item, by id. */
export interface SignedBatch {
  signed: { id: number; jws: string }[];
}

const keys = new Map<string, Promise<CryptoKey>>();

self.onmessage = async (e: MessageEvent<SignBatch>) => {
  const batch = e.data;
  if (batch.crash) throw new Error("receipt signer asked to stop");
  for (const [kid, jwk] of Object.entries(batch.keys ?? {})) keys.set(kid, signingKeyOf(jwk));
  const signed = await Promise.all((batch.items ?? []).map(async ({ id, kid, input }) => {
    const key = keys.get(kid);
    if (!key) throw new Error(`receipt signer has no key ${kid}`);
    return { id, jws: await signCompact(input, await key) };
  }));
  self.postMessage({ signed } satisfies SignedBatch);
};
