/**
 * Publisher management routes (docs/DESIGN.md §6): signup, login, logout and settings here; rules,
 * articles and analytics in their own files; the OpenAPI document of the whole management API.
 * Authentication is attached per route, never with a wildcard `use()`: sub-apps are merged into
 * one router, so a wildcard here would also run on the ingest and license-request routes.
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps, AppEnv } from "../deps.ts";
import { clientAddress, throttle } from "../throttle.ts";
import { createPublisherAccount } from "./accounts.ts";
import { articlesRoutes } from "./articles_routes.ts";
import { requirePublisher, SESSION_COOKIE } from "./auth.ts";
import { current } from "./context.ts";
import { emailKey, LIMITS, logIn, logOut, SESSION_TTL_MS } from "./login.ts";
import { openApiDocument } from "./openapi.ts";
import { hashPassword } from "./passwords.ts";
import { rulesRoutes } from "./rules_routes.ts";
import { loginSchema, settingsPatchSchema, signupSchema } from "./schemas.ts";
import { applySettingsPatch, presentSettings } from "./settings.ts";
import { parseInput, readJson } from "./validation.ts";

/** Routes for signup, login, settings, rules, articles, calls, intents, coverage, OpenAPI. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requirePublisher(deps);
  const db = deps.store.db;

  app.post("/api/publishers/signup", async (c) => {
    await throttle(deps, `signup:ip:${clientAddress(c)}`, LIMITS.signupPerIp);
    const input = parseInput(signupSchema, await readJson(c));
    const { publisher, apiKey } = await createPublisherAccount(db, {
      name: input.name,
      slug: input.slug,
      email: input.email,
      owner: { email: input.email, passwordHash: await hashPassword(input.password) },
    }, { now: deps.clock.now() });
    c.header("Cache-Control", "no-store");
    return c.json({ publisherId: publisher.id, slug: publisher.slug, apiKey }, 201);
  });

  app.post("/api/publishers/login", async (c) => {
    await throttle(deps, `login:ip:${clientAddress(c)}`, LIMITS.loginPerIp);
    const input = parseInput(loginSchema, await readJson(c));
    await throttle(deps, await emailKey(input.email), LIMITS.loginPerEmail);
    const session = await logIn(db, input, { now: deps.clock.now() });
    setCookie(c, SESSION_COOKIE, session.token, cookieOptions(deps, SESSION_TTL_MS / 1000));
    c.header("Cache-Control", "no-store");
    return c.json({
      publisherId: session.publisherId,
      csrfToken: session.csrfToken,
      expiresAt: new Date(session.expiresAt).toISOString(),
    });
  });

  // Idempotent and harmless without a session; SameSite=Lax keeps other sites from posting it.
  app.post("/api/publishers/logout", async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await logOut(db, token);
    deleteCookie(c, SESSION_COOKIE, cookieOptions(deps, 0));
    return c.body(null, 204);
  });

  app.get("/api/publisher/settings", auth, (c) => c.json(presentSettings(current(c))));

  app.patch("/api/publisher/settings", auth, async (c) => {
    const patch = parseInput(settingsPatchSchema, await readJson(c));
    const updated = await applySettingsPatch(deps, current(c), patch);
    return c.json(presentSettings(updated));
  });

  app.get("/api/openapi.json", (c) => c.json(openApiDocument(deps.config)));

  app.route("/", rulesRoutes(deps));
  app.route("/", articlesRoutes(deps));
  return app;
}

function cookieOptions(deps: AppDeps, maxAge: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: deps.config.baseUrl.startsWith("https:"),
    maxAge,
  };
}
