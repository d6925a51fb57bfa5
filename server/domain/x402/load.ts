/**
 * x402 v2 on the landing path (issue 40; docs/decisions/x402.md): an agent without a Folio
 * account pays for one read on chain. This module is light: the protocol (the `@x402/*` packages
 * and viem) loads on first use, and only when x402 is configured.
 *
 * @module
 */
import type { Config, X402Config } from "../../platform/config.ts";
import type { Logger } from "../../platform/log.ts";
import type { X402Protocol } from "./protocol.ts";

/** The request header carrying a payment (x402 v2 HTTP transport). */
export const PAYMENT_SIGNATURE = "payment-signature";
/** The 402 answer's header naming what to pay. */
export const PAYMENT_REQUIRED = "PAYMENT-REQUIRED";
/** The paid answer's header carrying the settlement. */
export const PAYMENT_RESPONSE = "PAYMENT-RESPONSE";

/** The resource a payment is for: the URL the request named, without a fragment. */
export function resourceUrlOf(requestUrl: string): string {
  const url = new URL(requestUrl);
  url.hash = "";
  return url.href;
}

const loaded = new WeakMap<X402Config, Promise<X402Protocol>>();

/** The configured protocol, loaded once per configuration. */
export function x402Protocol(config: X402Config): Promise<X402Protocol> {
  let protocol = loaded.get(config);
  if (!protocol) {
    protocol = load(config);
    loaded.set(config, protocol);
  }
  return protocol;
}

async function load(config: X402Config): Promise<X402Protocol> {
  // A computed specifier: `deno run` does not follow it into the start graph, so a node without
  // x402 never fetches, compiles or loads the packages (docs/decisions/operations.md "A serving
  // lockfile").
  const specifier = ["./protocol", "ts"].join(".");
  const module: typeof import("./protocol.ts") = await import(specifier);
  return module.x402Protocol(config);
}

/**
 * The `PAYMENT-REQUIRED` header value for a 402 quoting `micros` for `url`; null when the
 * facilitator cannot be asked what it supports (the 402 then speaks the other dialects only).
 */
export async function paymentRequiredHeader(
  deps: { config: Pick<Config, "x402">; log: Logger },
  micros: number,
  url: string,
): Promise<string | null> {
  if (!deps.config.x402) return null;
  try {
    const protocol = await x402Protocol(deps.config.x402);
    return await protocol.paymentRequired(await protocol.requirements(micros), url);
  } catch (err) {
    deps.log.warn("x402 facilitator unavailable", { error: String(err) });
    return null;
  }
}
