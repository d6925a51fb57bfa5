/**
 * /publisher/settings: the settings page, and one form per part, each turned into a PATCH
 * /api/publisher/settings of that part alone (or POST /api/publisher/key/rotate for the key).
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { SettingsPage, type SettingsProps } from "../../../ui/console/settings.tsx";
import { KeyRotationPage } from "../../../ui/console/key_rotation.tsx";
import { CONSOLE_FRAME } from "../../../ui/console/shell.tsx";
import { SPONSOR_TOOL_LIST } from "../../domain/sponsor_tools.ts";
import type { AppDeps } from "../../deps.ts";
import { keyResponseSchema } from "../../surfaces/manage/openapi_schemas.ts";
import {
  crawlersSchema,
  domainVerifyResponseSchema,
  settingsResponseSchema,
} from "../../surfaces/manage/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  checked,
  doneRedirect,
  field,
  type Fields,
  formLimit,
  noticeOf,
  numeric,
  readForm,
  send,
} from "../kit/forms.ts";
import { must } from "../kit/pages.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { redirectToShowOnce, takeShownOnce } from "../kit/shown_once.ts";

const NOTICES: Record<string, string> = {
  profile: "Profile and branding saved.",
  domain: "Custom domain saved.",
  verified: "Domain verified: it serves your site now.",
  unverified: "Not verified yet: see what Folio found below.",
  toggles: "Surfaces and access saved.",
  license: "Rights and prices saved.",
  access: "Paywall meter and robots saved.",
  sponsor: "Sponsor tools saved.",
  enterprise: "Enterprise terms saved.",
  "agent-payments": "Agent payments saved.",
};

const SPONSOR_LIST = [...SPONSOR_TOOL_LIST];

/** Per-crawler selects are named `crawler.<family>`; empty means the default for its class. */
const CRAWLER_FIELD = "crawler.";

/** Builds the PATCH body of one settings part from its form. */
const PATCHES: Record<string, (f: Fields) => Record<string, unknown>> = {
  profile: (f) => ({
    name: field(f, "name"),
    description: field(f, "description"),
    branding: {
      logoUrl: orNull(f, "branding.logoUrl"),
      primaryColor: orNull(f, "branding.primaryColor"),
      font: orNull(f, "branding.font"),
    },
  }),
  domain: (f) => ({ customDomain: orNull(f, "customDomain") }),
  toggles: (f) => ({
    toggles: Object.fromEntries(
      ["publicRest", "a2a", "mcpApps", "requireAuth", "consentScreen", "subscriptionLinking"]
        .map((t) => [t, checked(f, `toggles.${t}`)]),
    ),
  }),
  license: (f) => ({
    rights: Object.fromEntries(
      ["summarization", "display", "rag", "fine_tuning"].map((r) => [r, checked(f, `rights.${r}`)]),
    ),
    pricingUsdCents: Object.fromEntries(
      ["display", "summarization", "rag"].flatMap((use) => {
        const price = cents(f, `pricingUsd.${use}`);
        return price === undefined ? [] : [[use, price]];
      }),
    ),
  }),
  access: (f) => ({
    paywallMeterLimit: numeric(f, "paywallMeterLimit"),
    robotsOrigin: orNull(f, "robotsOrigin"),
    originUrl: orNull(f, "originUrl"),
  }),
  "agent-payments": (f) => {
    const price = cents(f, "agentPayments.crawlerPriceUsd");
    return {
      agentPayments: {
        enabled: checked(f, "agentPayments.enabled"),
        crawlerPriceUsdCents: price === undefined ? null : price,
        defaultAction: field(f, "agentPayments.defaultAction"),
        userFetchers: field(f, "agentPayments.userFetchers"),
        // Only the crawlers set to something other than their default; the map replaces the old.
        crawlers: Object.fromEntries(
          Object.keys(f).flatMap((name) => {
            const family = name.startsWith(CRAWLER_FIELD) ? name.slice(CRAWLER_FIELD.length) : "";
            const action = field(f, name);
            return family && action !== "" ? [[family, action]] : [];
          }),
        ),
      },
    };
  },
  sponsor: (f) => ({
    sponsorTools: [f.sponsorTools ?? []].flat().filter((t) => t !== ""),
  }),
  enterprise: (f) =>
    field(f, "enterprise.action") === "remove" ? { enterpriseTerms: null } : {
      enterpriseTerms: {
        useCases: [f["enterprise.useCases"] ?? []].flat(),
        monthlyPriceUsdCents: cents(f, "enterprise.monthlyPriceUsd") ?? 0,
        conditions: field(f, "enterprise.conditions"),
      },
    },
};

const DOLLARS = "enter an amount in dollars, such as 50 or 49.99";
const price = (name: string, label: string) => ({ name, label, plain: DOLLARS, cents: true });

/** The settings API's inputs, by `param`, and the fields of the forms that fill them. */
const FIELDS: FieldMap = {
  name: { name: "name", label: "Name" },
  description: { name: "description", label: "Description" },
  "branding.logoUrl": { name: "branding.logoUrl", label: "Logo URL" },
  "branding.primaryColor": { name: "branding.primaryColor", label: "Primary colour" },
  "branding.font": { name: "branding.font", label: "Font" },
  customDomain: { name: "customDomain", label: "Host name" },
  "pricingUsdCents.display": price("pricingUsd.display", "Price per display read (USD)"),
  "pricingUsdCents.summarization": price(
    "pricingUsd.summarization",
    "Price per summarization read (USD)",
  ),
  "pricingUsdCents.rag": price("pricingUsd.rag", "Price per retrieval read (USD)"),
  paywallMeterLimit: {
    name: "paywallMeterLimit",
    label: "Free PAYWALL reads per reader per month",
    plain: "enter a whole number from 0 to 1000",
  },
  robotsOrigin: { name: "robotsOrigin", label: "robots.txt origin" },
  originUrl: { name: "originUrl", label: "Your site's origin" },
  "agentPayments.crawlerPriceUsdCents": price(
    "agentPayments.crawlerPriceUsd",
    "Price per page for crawlers (USD)",
  ),
  "enterpriseTerms.useCases": {
    name: "enterprise.useCases",
    label: "Uses covered",
    plain: "tick at least one use",
  },
  "enterpriseTerms.monthlyPriceUsdCents": price(
    "enterprise.monthlyPriceUsd",
    "Monthly price (USD)",
  ),
  "enterpriseTerms.conditions": { name: "enterprise.conditions", label: "Conditions" },
};

/** The settings pages. */
/** Where a rotated key is shown, once. */
const NEW_KEY = "/publisher/settings/key/new";

export function settingsPages(deps: AppDeps, api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const render = async (
    c: Context<ConsoleEnv>,
    extra: Partial<SettingsProps>,
    status: 200 | 400 | 403 | 404 | 409 = 200,
  ) => {
    const [settings, crawlers] = await Promise.all([
      callApi(c, api, "/api/publisher/settings", settingsResponseSchema).then(must),
      callApi(c, api, "/api/publisher/crawlers", crawlersSchema).then(must),
    ]);
    return c.html(
      renderPage(SettingsPage({
        who: c.get("who"),
        settings,
        crawlers: crawlers.crawlers,
        sponsorTools: SPONSOR_LIST,
        platformHost: new URL(deps.config.baseUrl).hostname,
        platformPort: deps.config.port,
        notice: noticeOf(c, NOTICES),
        ...extra,
      })),
      status,
    );
  };

  app.get("/settings", (c) => render(c, {}));

  // The confirmation step; the form on it posts below (issue 34).
  app.get("/settings/key", (c) =>
    c.html(renderPage(KeyRotationPage({
      frame: CONSOLE_FRAME,
      who: c.get("who"),
      section: "settings",
      what: "publisher key",
      hint: null,
      usedBy: "on the management API",
      action: "/publisher/settings/key",
      cancelHref: "/publisher/settings#key",
    }))));

  app.post("/settings/key", formLimit, async (c) => {
    const f = await readForm(c);
    const rotated = await send(c, api, f, "/api/publisher/key/rotate", {
      method: "POST",
    }, keyResponseSchema);
    if (!rotated.ok) {
      const status = rotated.status === 403 ? 403 : 400;
      return render(c, { failed: { part: "key", problem: rotated.problem!, values: {} } }, status);
    }
    // Shown on a page of its own after a redirect: a reload neither rotates again nor shows it.
    const material = c.get("who").csrfToken;
    return await redirectToShowOnce(c, deps, NEW_KEY, material, rotated.body.apiKey);
  });

  app.get("/settings/key/new", async (c) => {
    const newKey = await takeShownOnce(c, c.get("who").csrfToken);
    if (!newKey) return c.redirect("/publisher/settings#key", 303);
    return render(c, { newKey, notice: "New key issued; the old one no longer works." });
  });

  app.post("/settings/domain/verify", formLimit, async (c) => {
    const f = await readForm(c);
    const checked = await send(
      c,
      api,
      f,
      "/api/publisher/domain/verify",
      { method: "POST" },
      domainVerifyResponseSchema,
    );
    if (!checked.ok) {
      const status = checked.status === 403 || checked.status === 409 ? checked.status : 400;
      return render(
        c,
        { failed: { part: "domain", problem: checked.problem!, values: {} } },
        status,
      );
    }
    const done = checked.body.domain?.status === "verified" ? "verified" : "unverified";
    return doneRedirect(c, "/publisher/settings#domain", done);
  });

  app.post("/settings/:part", formLimit, async (c) => {
    const part = c.req.param("part");
    const patch = PATCHES[part];
    if (!patch) return render(c, {}, 404);
    const f = await readForm(c);
    const saved = await send(c, api, f, "/api/publisher/settings", {
      method: "PATCH",
      json: patch(f),
    });
    if (saved.ok) return doneRedirect(c, `/publisher/settings#${part}`, part);
    const status = saved.status === 409 || saved.status === 403 ? saved.status : 400;
    const { top, field } = formProblem(saved, FIELDS);
    const failed = { part, problem: top ?? saved.problem!, values: f, field };
    return render(c, { failed }, status);
  });
  return app;
}

function orNull(f: Fields, name: string): string | null {
  const v = field(f, name).trim();
  return v === "" ? null : v;
}
