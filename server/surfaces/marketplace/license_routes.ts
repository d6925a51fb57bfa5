/**
 * Licenses (subscriptions) and checkout: POST/GET /api/marketplace/licenses, the portal pages a
 * buyer lands on after checkout, and the processor's signed webhook.
 */
import { Hono } from "hono";
import { getLicense, listLicenses } from "../../../store/licenses.ts";
import { renderPage } from "../../../ui/layout.tsx";
import { CheckoutPage } from "../../../ui/invoice.tsx";
import { cancelAtPeriodEnd } from "../../domain/billing/cancel.ts";
import { createStripe } from "../../domain/billing/stripe.ts";
import { receivablesSettings } from "../../domain/billing/invoice_terms.ts";
import { completeCheckout, subscribe } from "../../domain/billing/subscriptions.ts";
import { handleWebhook } from "../../domain/billing/webhooks.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { bodyLimited } from "../../platform/envelope.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { microsToCents, microsToWholeCents } from "../../platform/money.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { licenseInputSchema } from "./schemas.ts";
import { presentCancel, presentLicense } from "./license_view.ts";

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
      quotedAt: body.quotedAt === undefined ? undefined : new Date(body.quotedAt),
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
      firstChargeUsdCents: microsToCents(r.firstChargeMicros),
      renewsAt: r.periodEnd.toISOString(),
      billing: "invoice: the rest of this month, prorated to the second, is on this month's " +
        "statement; the monthly fee renews on the 1st (UTC)",
    }, 201);
  });

  app.get("/licenses", auth, async (c) => {
    const licenses = await listLicenses(db, c.get("buyer").id);
    const now = deps.clock.now();
    return c.json({ licenses: licenses.map((l) => presentLicense(l, now)) });
  });

  // What canceling would do, stated before it happens (the buyer portal's confirmation page).
  app.get("/licenses/:licenseId/cancel", auth, async (c) => {
    const license = await getLicense(db, c.get("buyer").id, c.req.param("licenseId"));
    if (!license) throw notFound("License");
    return c.json(presentCancel(license, deps.clock.now()));
  });

  app.post("/licenses/:licenseId/cancel", auth, async (c) => {
    const now = deps.clock.now();
    const license = await cancelAtPeriodEnd(
      { db, processor },
      c.get("buyer").id,
      c.req.param("licenseId"),
      { now },
    );
    return c.json(presentCancel(license, now));
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
      const settings = receivablesSettings(deps.config);
      const r = await handleWebhook({ db, processor: processor!, settings }, {
        rawBody,
        signature: c.req.header("stripe-signature") ?? null,
        now: deps.clock.now(),
      });
      return c.json({ received: true, duplicate: r.duplicate, effect: r.effect });
    },
  );
  return app;
}
