/**
 * A buyer's Web Bot Auth key directories (issue 13): a crawler that signs its requests (RFC 9421,
 * server/domain/crawlers/web_bot_auth.ts) with a key from a registered directory pays as this buyer on
 * publishers' pages. Registering proves control: the request must itself be signed with a key of
 * that directory, so no one can claim another operator's crawler (or be billed for it).
 */
import { Hono } from "hono";
import {
  addSignatureAgent,
  listSignatureAgents,
  removeSignatureAgent,
} from "../../../store/signature_agents.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { authenticateWebBotAuth } from "../../domain/crawlers/signature_replay.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { signatureAgentInputSchema } from "./schemas.ts";

/** Signature-agent routes. */
export function signatureAgentRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);
  const list = async (buyerId: string) => ({ agents: await listSignatureAgents(db, buyerId) });

  app.get("/signature-agents", auth, async (c) => c.json(await list(c.get("buyer").id)));

  app.post(
    "/signature-agents",
    auth,
    json(signatureAgentInputSchema, { empty: true }),
    async (c) => {
      const { agent } = c.req.valid("json");
      const signed = await authenticateWebBotAuth(deps, c.req.raw);
      if (signed.kind !== "verified" || signed.agent !== agent) {
        throw new AppError(
          403,
          "signature_required",
          signed.kind === "invalid"
            ? `Sign this request with a key of ${agent}: ${signed.why}`
            : `Sign this request with a key of ${agent} (Web Bot Auth: Signature-Agent, Signature-Input, Signature) to show the directory is yours`,
        );
      }
      const buyerId = c.get("buyer").id;
      if (!(await addSignatureAgent(db, buyerId, agent, { now: deps.clock.now() }))) {
        throw new AppError(409, "agent_taken", `${agent} is registered to another buyer`);
      }
      return c.json(await list(buyerId), 201);
    },
  );

  app.delete("/signature-agents", auth, async (c) => {
    const agent = c.req.query("agent") ?? "";
    if (!(await removeSignatureAgent(db, c.get("buyer").id, agent))) {
      throw notFound("signature agent");
    }
    return c.json(await list(c.get("buyer").id));
  });
  return app;
}
