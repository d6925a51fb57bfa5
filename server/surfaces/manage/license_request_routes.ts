/**
 * Publisher management: license requests (the approval side of request_license) and earnings
 * (docs/DESIGN.md section 6). Approval makes an offer (server/domain/billing/offers.ts) with the
 * monthly price, term and expiry the publisher sets, which the buyer accepts or declines; nothing
 * is billed before. A denial may carry a reason, which the buyer sees.
 */
import { Hono } from "hono";
import {
  denyLicenseRequest,
  type LicenseRequest,
  listRequests,
} from "../../domain/billing/license_requests.ts";
import { makeOffer } from "../../domain/billing/offers.ts";
import { publisherEarnings } from "../../domain/billing/earnings.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { invalid } from "../../platform/errors.ts";
import { centsToMicros } from "../../platform/money.ts";
import { presentOfferToPublisher, presentRequests } from "./license_requests.ts";
import { licenseApprovalSchema, licenseDenialSchema } from "./schemas.ts";
import { json } from "./body.ts";

const STATES = new Set(["pending", "approved", "denied"]);

/** Routes for license requests and earnings. */
export function licenseRequestRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.get("/license-requests", async (c) => {
    const state = c.req.query("state");
    if (state !== undefined && !STATES.has(state)) {
      throw invalid("state", "must be pending, approved or denied");
    }
    const publisher = c.get("publisher");
    const requests = await listRequests(db, publisher.id, {
      state: state as LicenseRequest["state"] | undefined,
    });
    return c.json({
      requests: await presentRequests(db, publisher, requests, deps.clock.now()),
    });
  });

  app.post(
    "/license-requests/:id/approve",
    json(licenseApprovalSchema, { empty: true }),
    async (c) => {
      const terms = c.req.valid("json");
      const publisher = c.get("publisher");
      const now = deps.clock.now();
      const { request, offer } = await makeOffer(db, publisher, {
        requestId: c.req.param("id"),
        monthlyPriceMicros: terms.monthlyPriceUsdCents === undefined
          ? undefined
          : centsToMicros(terms.monthlyPriceUsdCents),
        termMonths: terms.termMonths,
        expiresInDays: terms.expiresInDays,
        note: terms.note,
        now,
      });
      const [presented] = await presentRequests(db, publisher, [request], now);
      return c.json({ request: presented, offer: presentOfferToPublisher(offer, now) });
    },
  );

  app.post("/license-requests/:id/deny", json(licenseDenialSchema, { empty: true }), async (c) => {
    const { reason } = c.req.valid("json");
    const publisher = c.get("publisher");
    const request = await denyLicenseRequest(db, publisher.id, {
      requestId: c.req.param("id"),
      reason,
      now: deps.clock.now(),
    });
    const [presented] = await presentRequests(db, publisher, [request], deps.clock.now());
    return c.json({ request: presented });
  });

  app.get("/earnings", async (c) => {
    const raw = c.req.query("months") ?? "12";
    if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 36) {
      throw invalid("months", "must be a whole number from 1 to 36");
    }
    return c.json(
      await publisherEarnings(db, c.get("publisher").id, {
        months: Number(raw),
        now: deps.clock.now(),
      }),
    );
  });
  return app;
}
