/**
 * Stripe as the payment processor: Checkout Sessions in subscription mode (and payment mode for an
 * invoice, issue 38), retrieved to confirm a
 * buyer's return, and webhooks verified over the raw body (Stripe "Check the webhook signatures":
 * `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, several v1 during secret
 * rotation, 300 s tolerance). Every call goes through the guarded fetcher.
 */
import type { GuardedFetcher } from "../catalog/fetcher.ts";
import { FetchRefused } from "../catalog/fetcher.ts";
import type { Config } from "../../platform/config.ts";
import { AppError } from "../../platform/errors.ts";
import { timingSafeEqual } from "../../platform/secrets.ts";
import type {
  CheckoutRequest,
  CheckoutSession,
  InvoiceCheckoutRequest,
  PaymentProcessor,
  ProcessorEvent,
} from "./processor.ts";

/** Seconds a signed webhook stays acceptable either side of now. */
export const WEBHOOK_TOLERANCE_S = 300;

/** A Stripe adapter over the guarded fetcher. */
export function createStripe(
  config: NonNullable<Config["stripe"]>,
  fetcher: GuardedFetcher,
): PaymentProcessor {
  async function call(
    path: string,
    init: { method: "GET" | "POST"; form?: URLSearchParams; idempotencyKey?: string },
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${config.secretKey}`,
      "content-type": "application/x-www-form-urlencoded",
    };
    if (init.idempotencyKey) headers["idempotency-key"] = init.idempotencyKey;
    try {
      const res = await fetcher.fetch(`${config.apiBase}${path}`, {
        method: init.method,
        body: init.form?.toString(),
        headers,
        allowAuthorization: true,
        accept: ["application/json"],
        timeoutMs: 15_000,
        maxBytes: 1024 * 1024,
      });
      return JSON.parse(res.text());
    } catch (e) {
      if (e instanceof FetchRefused && e.status === 404) {
        throw new AppError(404, "not_found", "The payment processor does not know that object");
      }
      const detail = e instanceof FetchRefused
        ? e.code + (e.status ? ` ${e.status}` : "")
        : "error";
      throw new AppError(
        502,
        "payment_processor_error",
        `The payment processor did not accept the request (${detail}); try again later`,
      );
    }
  }

  return {
    async createCheckout(req: CheckoutRequest) {
      const form = new URLSearchParams({
        mode: "subscription",
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: req.licenseId,
        customer_email: req.buyerEmail,
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][currency]": "usd",
        "line_items[0][price_data][unit_amount]": String(req.monthlyUsdCents),
        "line_items[0][price_data][recurring][interval]": "month",
        "line_items[0][price_data][product_data][name]": req.description,
        "metadata[license_id]": req.licenseId,
        "subscription_data[metadata][license_id]": req.licenseId,
      });
      const s = await call("/v1/checkout/sessions", {
        method: "POST",
        form,
        idempotencyKey: req.idempotencyKey,
      });
      if (typeof s.id !== "string" || typeof s.url !== "string") {
        throw new AppError(502, "payment_processor_error", "The payment processor sent no URL");
      }
      return { sessionId: s.id, url: s.url };
    },

    async createInvoiceCheckout(req: InvoiceCheckoutRequest) {
      const form = new URLSearchParams({
        mode: "payment",
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: `invoice:${req.invoiceSeq}`,
        customer_email: req.buyerEmail,
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][currency]": "usd",
        "line_items[0][price_data][unit_amount]": String(req.amountUsdCents),
        "line_items[0][price_data][product_data][name]": `Invoice ${req.invoiceNumber}`,
        "metadata[invoice_seq]": String(req.invoiceSeq),
        "payment_intent_data[metadata][invoice_seq]": String(req.invoiceSeq),
      });
      const s = await call("/v1/checkout/sessions", {
        method: "POST",
        form,
        idempotencyKey: req.idempotencyKey,
      });
      if (typeof s.id !== "string" || typeof s.url !== "string") {
        throw new AppError(502, "payment_processor_error", "The payment processor sent no URL");
      }
      return { sessionId: s.id, url: s.url };
    },

    async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
      await call(`/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, {
        method: "POST",
        form: new URLSearchParams({ cancel_at_period_end: "true" }),
        idempotencyKey: `cancel:${subscriptionId}`,
      });
    },
    async retrieveCheckout(sessionId: string): Promise<CheckoutSession> {
      if (!/^[A-Za-z0-9_]{1,255}$/.test(sessionId)) {
        throw new AppError(400, "invalid_request", "session_id: is not a checkout session id");
      }
      return toSession(await call(`/v1/checkout/sessions/${sessionId}`, { method: "GET" }));
    },

    async verifyWebhook(rawBody, header, options): Promise<ProcessorEvent> {
      await verifyStripeSignature(rawBody, header, {
        secret: config.webhookSecret,
        now: options.now,
      });
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(rawBody);
      } catch {
        throw badSignature("the body is not JSON");
      }
      const data = event.data as { object?: Record<string, unknown> } | undefined;
      if (typeof event.id !== "string" || typeof event.type !== "string" || !data?.object) {
        throw badSignature("the event has no id, type or data.object");
      }
      return { id: event.id, type: event.type, object: data.object };
    },
  };
}

/** A Stripe session object in our terms. */
export function toSession(s: Record<string, unknown>): CheckoutSession {
  const metadata = (s.metadata ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    id: String(s.id),
    url: str(s.url),
    status: (str(s.status) ?? "open") as CheckoutSession["status"],
    paymentStatus: str(s.payment_status) ?? "unpaid",
    subscriptionId: str(s.subscription),
    licenseId: str(s.client_reference_id) ?? str(metadata.license_id),
  };
}

/** Checks a `Stripe-Signature` header against the raw body; throws a 400 AppError otherwise. */
export async function verifyStripeSignature(
  rawBody: string,
  header: string | null,
  options: { secret: string; now: Date; toleranceS?: number },
): Promise<void> {
  if (!header) throw badSignature("the Stripe-Signature header is missing");
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t") t = v ?? null;
    else if (k === "v1" && v) v1.push(v.toLowerCase());
  }
  if (!t || !/^\d{1,12}$/.test(t) || v1.length === 0) {
    throw badSignature("the Stripe-Signature header has no timestamp or v1 signature");
  }
  const age = Math.abs(options.now.getTime() / 1000 - Number(t));
  if (age > (options.toleranceS ?? WEBHOOK_TOLERANCE_S)) {
    throw badSignature("the signature timestamp is outside the tolerance window");
  }
  const expected = await hmacHex(options.secret, `${t}.${rawBody}`);
  // Compare with every v1 (secret rotation sends several); no early exit on the first match.
  let ok = false;
  for (const sig of v1) ok = timingSafeEqual(sig, expected) || ok;
  if (!ok) throw badSignature("no v1 signature matches");
}

/** Hex HMAC-SHA256 (also used by tests to sign events). */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function badSignature(why: string): AppError {
  return new AppError(400, "invalid_signature", `Webhook rejected: ${why}`);
}
