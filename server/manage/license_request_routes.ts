/**
 * Publisher management: license requests (the approval side of request_license) and earnings
 * (docs/DESIGN.md section 6). Approval creates the license (server/billing/license_requests.ts).
 */
import { Hono } from "hono";
import {
  approveLicenseRequest,
  denyLicenseRequest,
  type LicenseRequest,
  listRequests,
} from "../billing/license_requests.ts";
import { publisherEarnings } from "../billing/earnings.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { invalid } from "../errors.ts";

const STATES = new Set(["pending", "approved", "denied"]);

/** Routes for license requests and earnings. */
export function licenseRequestRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;

  app.get("/license-requests", async (c) => {
    const state = c.req.query("state");
    if (state !== undefined && !STATES.has(state)) {
      throw invalid("state", "must be pending, approved or denied");
    }
    const requests = await listRequests(db, c.var.publisher!.id, {
      state: state as LicenseRequest["state"] | undefined,
    });
    return c.json({ requests });
  });

  app.post("/license-requests/:id/approve", async (c) => {
    const r = await approveLicenseRequest(db, c.var.publisher!, {
      requestId: c.req.param("id"),
      now: deps.clock.now(),
    });
    return c.json(r);
  });

  app.post("/license-requests/:id/deny", async (c) => {
    const request = await denyLicenseRequest(db, c.var.publisher!.id, {
      requestId: c.req.param("id"),
      now: deps.clock.now(),
    });
    return c.json({ request });
  });

  app.get("/earnings", async (c) => {
    const raw = c.req.query("months") ?? "12";
    if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 36) {
      throw invalid("months", "must be a whole number from 1 to 36");
    }
    return c.json(await publisherEarnings(db, c.var.publisher!.id, { months: Number(raw) }));
  });
  return app;
}
