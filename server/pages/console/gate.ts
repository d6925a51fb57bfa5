/**
 * GET /publisher/gate: the crawler gate's configuration (GET /api/publisher/gate/config) for the
 * fail-safe and origin the form chose; without a verified domain, the API's reason.
 */
import { Hono } from "hono";
import { GatePage } from "../../../ui/console/gate.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { gateConfigSchema } from "../../surfaces/manage/gate_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import type { ConsoleEnv } from "../kit/session.ts";

/** The gate page. */
export function gatePages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/gate", async (c) => {
    const whenDown = c.req.query("whenDown") === "open" ? "open" : "refuse-crawlers";
    const origin = c.req.query("origin")?.trim() ?? "";
    const query = new URLSearchParams({ whenDown });
    if (origin) query.set("origin", origin);
    const answer = await callApi(c, api, `/api/publisher/gate/config?${query}`, gateConfigSchema);
    return c.html(
      renderPage(GatePage({
        who: c.get("who"),
        config: answer.ok ? answer.body : null,
        whenDown,
        origin: origin || (answer.ok ? answer.body.originUrl : ""),
        problem: answer.ok ? null : answer.problem ?? `The request failed (${answer.status})`,
      })),
      answer.ok || answer.status === 409 ? 200 : answer.status as 400,
    );
  });
  return app;
}
