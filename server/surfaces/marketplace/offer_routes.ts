/**
 * The buyer's license requests and the offers publishers make on them (issue 29 item 2,
 * docs/decisions/billing.md "Offers"): list and create requests, list and read offers, accept
 * (billed now, prorated, within the buyer's budgets) or decline them. Another buyer's offer is
 * not found.
 */
import { Hono } from "hono";
import type { Client } from "../../../store/db.ts";
import { getBuyerOffer, listBuyerOffers, offersOfRequests } from "../../../store/license_offers.ts";
import { listBuyerRequests } from "../../../store/license_requests.ts";
import { getLicense } from "../../../store/licenses.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { createLicenseRequest } from "../../domain/billing/license_requests.ts";
import { acceptOffer, declineOffer } from "../../domain/billing/offer_answers.ts";
import type { LicenseOffer } from "../../domain/billing/offers.ts";
import { presentBuyerRequest, presentOffer } from "../../domain/billing/offer_view.ts";
import { renewsAt } from "../../domain/billing/periods.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { notFound } from "../../platform/errors.ts";
import { centsToMicros, microsToCents } from "../../platform/money.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { presentLicense } from "./license_view.ts";
import { buyerRequestInputSchema, offerAcceptSchema, offerDeclineSchema } from "./offer_schemas.ts";

/** Offer and license-request routes. */
export function offerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);

  app.get("/license-requests", auth, async (c) => {
    const now = deps.clock.now();
    const requests = await listBuyerRequests(db, c.get("buyer").id);
    const offers = await offersOfRequests(db, requests.map((r) => r.id));
    const name = publisherNames(db);
    return c.json({
      requests: await Promise.all(
        requests.map(async (r) =>
          presentBuyerRequest(r, offers.get(r.id) ?? null, now, await name(r.publisherId))
        ),
      ),
    });
  });

  app.post("/license-requests", auth, json(buyerRequestInputSchema), async (c) => {
    const body = c.req.valid("json");
    const buyer = c.get("buyer");
    const r = await createLicenseRequest(db, {
      publisherId: body.publisherId,
      identity: `buyer:${buyer.id}`,
      buyerId: buyer.id,
      useCase: body.useCase,
      message: body.message,
      contact: body.contact ?? null,
      enterprise: body.enterprise,
      maxMonthlyMicros: body.maxMonthlyUsdCents === undefined
        ? null
        : centsToMicros(body.maxMonthlyUsdCents),
    }, { now: deps.clock.now() });
    return c.json(r, 201);
  });

  app.get("/offers", auth, async (c) => {
    const now = deps.clock.now();
    const name = publisherNames(db);
    const offers = await listBuyerOffers(db, c.get("buyer").id);
    return c.json({ offers: await Promise.all(offers.map((o) => shown(o, now, name))) });
  });

  app.get("/offers/:offerId", auth, async (c) => {
    const offer = await getBuyerOffer(db, c.get("buyer").id, c.req.param("offerId"));
    if (!offer) throw notFound("Offer");
    return c.json(await shown(offer, deps.clock.now(), publisherNames(db)));
  });

  app.post("/offers/:offerId/accept", auth, json(offerAcceptSchema, { empty: true }), async (c) => {
    const now = deps.clock.now();
    const buyerId = c.get("buyer").id;
    const { quotedAt } = c.req.valid("json");
    const r = await acceptOffer(db, buyerId, c.req.param("offerId"), {
      now,
      quotedAt: quotedAt === undefined ? undefined : new Date(quotedAt),
    });
    const license = (await getLicense(db, buyerId, r.licenseId))!;
    return c.json({
      offer: await shown(r.offer, now, publisherNames(db)),
      license: presentLicense(license, now),
      charged: {
        firstChargeUsdCents: microsToCents(r.firstChargeMicros),
        periodEnd: r.periodEnd.toISOString(),
        renewsAt: renewsAt(license, now)?.toISOString() ?? null,
      },
    });
  });

  app.post(
    "/offers/:offerId/decline",
    auth,
    json(offerDeclineSchema, { empty: true }),
    async (c) => {
      const now = deps.clock.now();
      const { reason } = c.req.valid("json");
      const offer = await declineOffer(db, c.get("buyer").id, c.req.param("offerId"), {
        reason,
        now,
      });
      return c.json(await shown(offer, now, publisherNames(db)));
    },
  );
  return app;
}

async function shown(o: LicenseOffer, now: Date, name: (id: string) => Promise<string>) {
  return presentOffer(o, now, await name(o.publisherId));
}

/** Publisher names by id, each looked up once per answer. */
function publisherNames(db: Client): (id: string) => Promise<string> {
  const names = new Map<string, Promise<string>>();
  return (id) => {
    if (!names.has(id)) names.set(id, getPublisher(db, id).then((p) => p?.name ?? id));
    return names.get(id)!;
  };
}
