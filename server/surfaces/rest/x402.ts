/**
 * x402 on REST's get_article (docs/decisions/x402.md "REST"): an anonymous caller's retry with
 * `PAYMENT-SIGNATURE` is paid through the landing path's `payForRead` at the price a fresh buyer
 * pays on REST; its 402 (the paywall meter spent) advertises `PAYMENT-REQUIRED`.
 */
import type { Context } from "hono";
import type { Publisher } from "../../../store/publishers.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import type { ReadResult } from "../../domain/reads/read_article.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import {
  PAYMENT_REQUIRED,
  PAYMENT_RESPONSE,
  PAYMENT_SIGNATURE,
  paymentRequiredHeader,
  resourceUrlOf,
} from "../../domain/x402/load.ts";
import { payForRead, type X402Deps } from "../../domain/x402/pay.ts";
import { x402Quote } from "../../domain/x402/quote.ts";

type Read = { publisher: Publisher; idOrUrl: string; caller: Caller };

/**
 * Pays the read when the request carries a payment: the paid read (answered with
 * `PAYMENT-RESPONSE`), or null to read as an anonymous caller (a refusal's `PAYMENT-REQUIRED`,
 * with its error, is set on the answer then).
 */
export async function paidRestRead(
  deps: X402Deps,
  c: Context<PublishedEnv>,
  req: Read,
): Promise<ReadResult | null> {
  const signature = c.req.header(PAYMENT_SIGNATURE);
  if (signature === undefined) return null;
  const quoted = await x402Quote(deps, req);
  if (!quoted) return null;
  const paid = await payForRead(deps, {
    publisher: req.publisher,
    article: quoted.article,
    caller: req.caller,
    quote: quoted.quote,
    resourceUrl: resourceUrlOf(c.req.url),
    signature,
  });
  if (paid.kind === "refused") {
    if (paid.paymentRequired) c.header(PAYMENT_REQUIRED, paid.paymentRequired);
    return null;
  }
  c.set("identity", `buyer:${paid.buyerId}`);
  c.header(PAYMENT_RESPONSE, paid.paymentResponse);
  return paid.read;
}

/** On an anonymous 402: what to pay over x402 for this read (a refused payment's says already). */
export async function advertiseRestPayment(
  deps: X402Deps,
  c: Context<PublishedEnv>,
  req: Read,
): Promise<void> {
  if (c.req.header(PAYMENT_SIGNATURE) !== undefined) return;
  const quoted = await x402Quote(deps, req);
  if (!quoted) return;
  const value = await paymentRequiredHeader(
    { config: { x402: deps.config }, log: deps.log },
    quoted.quote.micros,
    resourceUrlOf(c.req.url),
  );
  if (value) c.header(PAYMENT_REQUIRED, value);
}
