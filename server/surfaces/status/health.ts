/** GET /api/health (mounted there): a real round trip to the store, timed. */
import { Hono } from "hono";
import { ping } from "../../../store/db.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";

const TIMEOUT_MS = 2000;

/** The health route. 200 {ok, dbLatencyMs} when the store answers, else 503 {ok: false}. */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Access-Control-Allow-Origin", "*");
    const started = performance.now();
    try {
      await withTimeout(ping(deps.store.db), TIMEOUT_MS);
      const dbLatencyMs = Math.round((performance.now() - started) * 100) / 100;
      return c.json({ ok: true, dbLatencyMs });
    } catch (err) {
      deps.log.warn("Health check failed", { error: String(err) });
      return c.json({ ok: false, error: "The store did not answer" }, 503);
    }
  });
  return app;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
