/**
 * /buyer/catalog (GET /api/marketplace/catalog, filtered here: the API lists every publisher with
 * content, a few hundred at most), /buyer/catalog/<publisherId>, and its license form: POST
 * /api/marketplace/licenses, then the licenses page, or the processor's checkout (303) when the API
 * answers a checkoutUrl. The request form (`/request`) is POST /api/marketplace/license-requests,
 * then Requests & offers (303).
 */
import { type Context, Hono } from "hono";
import {
  type CatalogFilter,
  CatalogPage,
  type CatalogPublisher,
  surfacesOf,
} from "../../../ui/buyer/catalog.tsx";
import { bundles, PublisherPage } from "../../../ui/buyer/publisher.tsx";
import type { RequestTyped } from "../../../ui/buyer/license_request.tsx";
import { firstCharge } from "../../domain/billing/periods.ts";
import { REQUESTABLE_USES } from "../../domain/billing/license_requests.ts";
import { renderPage } from "../../../ui/layout.tsx";
import type { AppDeps } from "../../deps.ts";
import {
  type FieldMap,
  fieldProblem,
  type FormField,
  type FormProblem,
  formProblem,
} from "../kit/field_errors.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  checked,
  doneRedirect,
  field,
  formLimit,
  optional,
  readForm,
  send,
} from "../kit/forms.ts";
import { microsToCents, priceSubscription, usdToCents } from "../../platform/money.ts";
import { must, pageOf, pageStatus } from "../kit/pages.ts";
import { AppError } from "../../platform/errors.ts";
import { CSP, cspText, widened } from "../../platform/security_headers.ts";
import {
  catalogSchema,
  licenseBoughtSchema,
  licenseListSchema,
} from "../../surfaces/marketplace/schemas.ts";
import { heldRightsSchema } from "../../surfaces/marketplace/rights_schemas.ts";
import { refusalWords } from "./refusals.ts";
import { type BuyerEnv, market } from "./site.ts";

/** Publishers per catalog page. */
const PAGE_SIZE = 20;

/**
 * The publishers that pass the filter, or the problem with the filter. Search is a
 * case-insensitive substring of the name or description; the price is the per-read display price.
 */

/** The license form's one field: the use cases ticked. */
const USE_CASES: FormField = { name: "useCases", label: "Use cases" };
const PICK_ONE = "tick at least one; base access alone covers no reads";
const LICENSE_FIELDS: FieldMap = { useCases: { ...USE_CASES, plain: PICK_ONE } };

/** The request form's fields by the API input they fill. */
const MAX_MONTHLY: FormField = {
  name: "maxMonthlyUsd",
  label: "The most you will pay a month",
  plain: "enter an amount in dollars, e.g. 500",
  cents: true,
};
const REQUEST_FIELDS: FieldMap = {
  useCase: { name: "useCase", label: "Use", plain: "pick one of the uses listed" },
  use_case: { name: "useCase", label: "Use", plain: "pick one of the uses listed" },
  message: { name: "message", label: "Message", plain: "write who you are and what you want" },
  maxMonthlyUsdCents: MAX_MONTHLY,
  maxMonthlyUsd: MAX_MONTHLY,
};

/**
 * What subscribing to each bundle bills now, by the subscribe API's own rule (`firstCharge`, the
 * fee prorated to the second over the rest of the UTC month), or null when card checkout bills the
 * whole month (server/domain/billing/subscriptions.ts).
 */
export function firstCharges(
  now: Date,
  cardPayments: boolean,
): { cents: Record<string, number>; periodEnd: string; quotedAt: string } | null {
  if (cardPayments) return null;
  const at = bundles().map((b) => [b.key, firstCharge(priceSubscription(b.uses), now)] as const);
  return {
    cents: Object.fromEntries(at.map(([k, f]) => [k, microsToCents(f.micros)])),
    periodEnd: at[0][1].periodEnd.toISOString(),
    quotedAt: now.toISOString(),
  };
}

export function filterCatalog(
  publishers: CatalogPublisher[],
  f: CatalogFilter,
): { publishers: CatalogPublisher[]; problem: string | null } {
  const q = f.q.trim().toLowerCase();
  const max = f.maxPriceUsd.trim() === "" ? null : Number(f.maxPriceUsd.trim().replace(/^\$/, ""));
  const badPrice = max !== null && (!Number.isFinite(max) || max < 0);
  const kept = publishers.filter((p) =>
    (q === "" || p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q)) &&
    (f.right === "" || p.rights[f.right as keyof CatalogPublisher["rights"]] === "granted") &&
    (max === null || badPrice || p.pricingUsdCents.display <= usdToCents(max)) &&
    (f.surface === "" || surfacesOf(p).includes(f.surface.toUpperCase())) &&
    (f.auth === "" || p.requiresAuth === (f.auth === "required"))
  );
  return {
    publishers: kept,
    problem: badPrice ? "maxPriceUsd: must be a number of dollars, e.g. 0.05" : null,
  };
}

/** The catalog pages. */
export function catalogPages(deps: AppDeps, api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const catalog = async (c: Context<BuyerEnv>) =>
    must(await callApi(c, api, market("/catalog"), catalogSchema));

  app.get("/catalog", async (c) => {
    const q = (name: keyof CatalogFilter) => (c.req.query(name) ?? "").slice(0, 200);
    const filter: CatalogFilter = {
      q: q("q"),
      right: q("right"),
      maxPriceUsd: q("maxPriceUsd"),
      surface: q("surface"),
      auth: q("auth"),
    };
    const all = (await catalog(c)).publishers;
    const { publishers, problem } = filterCatalog(all, filter);
    const shown = pageOf(publishers, c.req.query("page"), PAGE_SIZE);
    return c.html(
      renderPage(CatalogPage({
        who: c.get("who"),
        filter,
        publishers: shown.items,
        matching: publishers.length,
        total: all.length,
        page: shown.page,
        pages: shown.pages,
        problem,
      })),
      problem ? 400 : 200,
    );
  });

  const render = async (
    c: Context<BuyerEnv>,
    failed: { problem: FormProblem; useCases: string[] } | null = null,
    status = 200,
    requestFailed: { problem: FormProblem; typed: RequestTyped } | null = null,
  ) => {
    const id = c.req.param("publisherId")!;
    const [{ publishers, rateCard }, licenses] = await Promise.all([
      catalog(c),
      callApi(c, api, market("/licenses"), licenseListSchema).then(must),
    ]);
    const publisher = publishers.find((p) => p.publisherId === id);
    if (!publisher) {
      throw new AppError(404, "not_found", "There is no such publisher in the catalog");
    }
    const mine = must(
      await callApi(c, api, market(`/rights/${encodeURIComponent(id)}`), heldRightsSchema),
    );
    const held = licenses.licenses.filter((l) =>
      l.publisherId === id && (l.state === "active" || l.state === "pending")
    );
    // The license form may go on to the processor's checkout page, on another origin.
    if (deps.config.stripe) {
      c.header("Content-Security-Policy", cspText(widened(CSP.portal, "formAction", ["https:"])));
    }
    return c.html(
      renderPage(PublisherPage({
        who: c.get("who"),
        publisher,
        rateCard,
        held,
        mine,
        failed,
        firstCharges: firstCharges(deps.clock.now(), deps.config.stripe !== null),
        requestFailed,
      })),
      pageStatus(status),
    );
  };

  app.get("/catalog/:publisherId", (c) => render(c));

  app.post("/catalog/:publisherId/license", formLimit, async (c) => {
    const f = await readForm(c);
    const useCases = [f.useCases ?? []].flat().filter((u) => u !== "");
    // Base access alone licenses no use (docs/SPEC.md "License": useCases are summarization,
    // display, rag), so the API refuses an empty bundle; say so beside the boxes before sending.
    if (useCases.length === 0) {
      return render(c, { problem: fieldProblem(USE_CASES, PICK_ONE), useCases }, 400);
    }
    const answer = await send(c, api, f, market("/licenses"), {
      method: "POST",
      // Billed as the page quoted it (the quote's moment goes back with the form).
      json: {
        publisherId: c.req.param("publisherId"),
        useCases,
        quotedAt: optional(f, "quotedAt"),
      },
    }, licenseBoughtSchema);
    if (!answer.ok) {
      const problem = { ...formProblem(answer, LICENSE_FIELDS), linked: refusalWords(answer) };
      return render(c, { problem, useCases }, answer.status);
    }
    if (answer.body.state === "pending") return c.redirect(answer.body.checkoutUrl, 303);
    return doneRedirect(c, "/buyer/licenses", "licensed");
  });

  app.post("/catalog/:publisherId/request", formLimit, async (c) => {
    const f = await readForm(c);
    const typed: RequestTyped = {
      useCase: field(f, "useCase"),
      message: field(f, "message"),
      maxMonthlyUsd: field(f, "maxMonthlyUsd"),
      enterprise: checked(f, "enterprise"),
    };
    const refused = (problem: FormProblem, status: number) =>
      render(c, null, status, { problem, typed });
    // Dollars typed by a person ("$500", "1,200.50"); the API takes whole cents.
    const typedMax = typed.maxMonthlyUsd.trim().replace(/^\$/, "").replaceAll(",", "");
    const maxMonthlyUsdCents = cents({ max: typedMax }, "max", true);
    if (typeof maxMonthlyUsdCents === "string" || (maxMonthlyUsdCents ?? 0) < 0) {
      return refused(fieldProblem(MAX_MONTHLY, MAX_MONTHLY.plain!), 400);
    }
    const use = REQUEST_FIELDS.useCase;
    if (!(REQUESTABLE_USES as readonly string[]).includes(typed.useCase)) {
      return refused(fieldProblem(use, use.plain!), 400);
    }
    const answer = await send(c, api, f, market("/license-requests"), {
      method: "POST",
      json: {
        publisherId: c.req.param("publisherId"),
        useCase: typed.useCase,
        message: typed.message,
        ...(typed.enterprise ? { enterprise: true } : {}),
        ...(maxMonthlyUsdCents === undefined ? {} : { maxMonthlyUsdCents }),
      },
    });
    if (!answer.ok) return refused(formProblem(answer, REQUEST_FIELDS), answer.status);
    return doneRedirect(c, "/buyer/offers", "requested");
  });
  return app;
}
