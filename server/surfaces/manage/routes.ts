/**
 * The publisher management API (docs/DESIGN.md §6), mounted at /api/publisher: every route needs
 * a publisher key or a dashboard session (one `requirePublisher` for the whole sub-app), and the
 * publisher it names is the one managed. Documented at GET /api/openapi.json.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { rotatePublisherKey } from "./accounts.ts";
import { analyticsRoutes } from "./analytics_routes.ts";
import { articlesRoutes } from "./articles_routes.ts";
import { articleBulkRoutes } from "./article_bulk_routes.ts";
import { callsRoutes } from "./calls_routes.ts";
import { trafficRoutes } from "./traffic_routes.ts";
import { type ManageEnv, requirePublisher } from "./auth.ts";
import { userEmail } from "../../../store/users.ts";
import { ingestRoutes } from "./ingest_routes.ts";
import { payoutRoutes } from "./payout_routes.ts";
import { disputeRoutes } from "./dispute_routes.ts";
import { licenseRequestRoutes } from "./license_request_routes.ts";
import { playgroundRoutes } from "./playground.ts";
import { rulesRoutes } from "./rules_routes.ts";
import { changePassword } from "../../domain/accounts/login.ts";
import { passwordChangeSchema, settingsPatchSchema } from "./schemas.ts";
import { limitSignIns, slowSignIns, throttle } from "../../platform/throttle.ts";
import { applySettingsPatch, settingsOf } from "./settings.ts";
import { verifyDomain } from "./domains.ts";
import { CRAWLERS } from "../../domain/crawlers/crawlers.ts";
import { settingFor } from "../../domain/crawlers/setting.ts";
import { json } from "./body.ts";
import { webhookRoutes } from "../../domain/webhooks/routes.ts";
import { gateConfigRoutes } from "./gate_config.ts";

const VERIFY_LIMIT = { limit: 30, windowMs: 60 * 60_000 };

/**
 * Settings, key, password, rules, articles, analytics, sources, jobs, books, license requests,
 * earnings, the passages playground.
 */
export function manageRoutes(deps: AppDeps): Hono<ManageEnv> {
  // On the whole sub-app: its type puts the publisher on the c.var of every route behind it.
  const app = new Hono<AppEnv>().use("*", requirePublisher(deps));

  // Who is signed in, and the CSRF token a cookie session's changes must echo (the console reads it).
  app.get("/session", async (c) => {
    const p = c.get("publisher");
    const session = c.get("session");
    c.header("Cache-Control", "no-store");
    return c.json({
      publisherId: p.id,
      slug: p.slug,
      name: p.name,
      via: session ? "session" : "key",
      email: session ? await userEmail(deps.store.db, session.userId) : null,
      csrfToken: session?.csrfToken ?? null,
      expiresAt: session ? new Date(session.expiresAt).toISOString() : null,
    });
  });

  app.get("/settings", async (c) => c.json(await settingsOf(deps, c.get("publisher"))));
  app.patch("/settings", json(settingsPatchSchema), async (c) => {
    const patch = c.req.valid("json");
    const updated = await applySettingsPatch(deps, c.get("publisher"), patch);
    return c.json(await settingsOf(deps, updated));
  });
  // "Verify now": each check asks DNS and fetches the domain, so a publisher gets a few an hour.
  app.post("/domain/verify", async (c) => {
    const p = c.get("publisher");
    await throttle(deps, `domain-verify:${p.id}`, VERIFY_LIMIT);
    await verifyDomain(deps, p.id);
    const { customDomain, domain } = await settingsOf(deps, p);
    return c.json({ customDomain, domain });
  });

  app.get("/crawlers", (c) => {
    const p = c.get("publisher");
    return c.json({
      crawlers: CRAWLERS.map((cr) => ({
        family: cr.family,
        operator: cr.operator,
        class: cr.class,
        robotsTokens: cr.robotsTokens,
        action: settingFor(p, cr),
        own: cr.family in p.agentPayments.crawlers,
      })),
    });
  });

  app.post("/key/rotate", async (c) => {
    const apiKey = await rotatePublisherKey(deps.store.db, c.get("publisher").id, {
      now: deps.clock.now(),
      keepSession: c.get("session")?.tokenHash ?? null,
    });
    c.header("Cache-Control", "no-store");
    return c.json({ apiKey });
  });

  // Guessing the current password with a stolen session or key is as slow as at sign-in.
  app.put("/password", json(passwordChangeSchema), async (c) => {
    const input = c.req.valid("json");
    const session = c.get("session");
    const publisherId = c.get("publisher").id;
    await limitSignIns(deps, c, "publisher-password");
    await slowSignIns(
      deps,
      c,
      "publisher-password",
      session?.userId ?? publisherId,
      () => changePassword(deps.store.db, publisherId, session, input),
    );
    return c.body(null, 204);
  });

  app.route("/", analyticsRoutes(deps));
  app.route("/", rulesRoutes(deps));
  app.route("/", articleBulkRoutes(deps));
  app.route("/", articlesRoutes(deps));
  app.route("/", callsRoutes(deps));
  app.route("/", trafficRoutes(deps));
  app.route("/", ingestRoutes(deps));
  app.route("/", licenseRequestRoutes(deps));
  app.route("/", payoutRoutes(deps));
  app.route("/", disputeRoutes(deps));
  app.route("/", playgroundRoutes(deps));
  // Issue 34: the publisher's signed webhooks (docs/decisions/webhooks.md); the sub-app's
  // requirePublisher has already authenticated.
  app.route(
    "/",
    webhookRoutes(deps, { auth: (_c, next) => next(), json, kind: "publisher" }),
  );
  app.route("/", gateConfigRoutes(deps));
  return app;
}
