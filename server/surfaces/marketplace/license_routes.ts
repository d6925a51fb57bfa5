/**
 * Licenses (subscriptions) and checkout: POST/GET /api/marketplace/licenses, the portal pages a
 * buyer lands on after checkout, and the processor's signed webhook.
 */
import { Hono } from "hono";
import { type License, listLicenses } from "../../../store/licenses.ts";
import { renderPage } from "../../../ui/layout.tsx";
import { CheckoutPage } from "../../../ui/invoice.tsx";
import { cancelAtPeriodEnd } from "../../domain/billing/cancel.ts";
import { createStripe } from "../../domain/billing/stripe.ts";
import { completeCheckout, subscribe } from "../../domain/billing/subscriptions.ts";
import { handleWebhook } from "../../domain/billing/webhooks.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { bodyLimited } from "../../platform/envelope.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { microsToWholeCents } from "../../platform/money.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { licenseInputSchema } from "./schemas.ts";

/** License and checkout routes. */
export function licenseRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);
  const processor = deps.config.stripe ? createStripe(deps.config.stripe, deps.fetcher) : null;

  app.post("/licenses", auth, json(licenseInputSchema, { empty: true }), async (c) => {
    const body = c.req.valid("json");
    const buyer = c.get("buyer");
    const r = await subscribe({ db, processor, baseUrl: deps.config.baseUrl }, buyer, {
      ...body,
      now: deps.clock.now(),
    });
    const monthlyFeeUsdCents = microsToWholeCents(r.monthlyFeeMicros);
    if (r.state === "pending") {
      return c.json({
        checkoutUrl: r.checkoutUrl,
        licenseId: r.licenseId,
        state: "pending",
        monthlyFeeUsdCents,
      });
    }
    return c.json({
      licenseId: r.licenseId,
      state: "active",
      publisherId: body.publisherId,
      useCases: r.useCases,
      monthlyFeeUsdCents,
      billing: "invoice: the fee is on this month's statement and renews on the 1st (UTC)",
    }, 201);
  });

  app.get("/licenses", auth, async (c) => {
    const licenses = await listLicenses(db, c.get("buyer").id);
    const now = deps.clock.now();
    return c.json({ licenses: licenses.map((l) => presentLicense(l, now)) });
  });

  app.post("/licenses/:licenseId/cancel", auth, async (c) => {
    const now = deps.clock.now();
    const license = await cancelAtPeriodEnd(
      { db, processor },
      c.get("buyer").id,
      c.req.param("licenseId"),
      { now },
    );
    return c.json(presentLicense(license, now));
  });

  // The buyer's browser lands on these two from checkout: pages, with the page headers. Success
  // is confirmed with the processor, never trusted from the URL.
  const page = pageHeaders(deps.config, CSP.document);
  app.get("/checkout/success", page, async (c) => {
    if (!processor) throw notFound("Checkout");
    const sessionId = c.req.query("session_id");
    if (!sessionId) throw invalid("session_id", "is required");
    const r = await completeCheckout({ db, processor }, sessionId, { now: deps.clock.now() });
    if (r.state === "unknown") throw notFound("Checkout session");
    c.header("Cache-Control", "no-store");
    return c.html(renderPage(CheckoutPage({ outcome: r.state })));
  });

  app.get("/checkout/cancel", page, (c) => {
    c.header("Cache-Control", "no-store");
    return c.html(renderPage(CheckoutPage({ outcome: "abandoned" })));
  });

  const webhookLimit = bodyLimited(
    512 * 1024,
    () => new AppError(413, "payload_too_large", "Webhook bodies are at most 512 KiB"),
  );
  app.post(
    "/webhooks/stripe",
    async (_c, next) => {
      if (!processor) throw notFound("Webhook endpoint");
      await next();
    },
    webhookLimit,
    async (c) => {
      const rawBody = await c.req.text();
      const r = await handleWebhook({ db, processor: processor! }, {
        rawBody,
        signature: c.req.header("stripe-signature") ?? null,
        now: deps.clock.now(),
      });
      return c.json({ received: true, duplicate: r.duplicate, effect: r.effect });
    },
  );
  return app;
}

/** A license as the buyer sees it, at `now`. */
function presentLicense(l: License, now: Date) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const over = l.state === "active" && l.expiresAt !== null && l.expiresAt <= now.getTime();
  const cancelRequested = l.cancelRequestedAt !== null;
  return {
    licenseId: l.id,
    publisherId: l.publisherId,
    kind: l.kind,
    useCases: l.useCases,
    // A license past its end grants nothing: "canceled" when the buyer ended it, else "expired".
    state: over ? (cancelRequested ? "canceled" : "expired") : l.state,
    monthlyFeeUsdCents: microsToWholeCents(l.monthlyFeeMicros),
    checkoutUrl: l.state === "pending" ? l.checkoutUrl : null,
    createdAt: iso(l.createdAt),
    activatedAt: iso(l.activatedAt),
    canceledAt: over && cancelRequested ? iso(l.expiresAt) : iso(l.canceledAt),
    /** Set once the buyer canceled: the license runs until then and is not renewed. */
    cancelsAt: cancelRequested && !over ? iso(l.expiresAt) : null,
    expiresAt: iso(l.expiresAt),
  };
}
