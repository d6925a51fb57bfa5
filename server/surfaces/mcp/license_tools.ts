/**
 * The license-request tools (docs/SPEC.md "MCP server": request_license with a publisher approval
 * workflow; issue 29 item 2): request_license asks, with the most the buyer will pay a month;
 * license_request_status tells the agent that asked where each request stands: pending, offered
 * (price, term, expiry, how the buyer accepts), accepted, declined, expired or denied with the
 * publisher's reason. Accepting stays the buyer's act (marketplace API or buyer portal).
 */
import { z } from "zod";
import { offersOfRequests } from "../../../store/license_offers.ts";
import { getLicenseRequest, listIdentityRequests } from "../../../store/license_requests.ts";
import { createLicenseRequest, REQUESTABLE_USES } from "../../domain/billing/license_requests.ts";
import { presentBuyerRequest } from "../../domain/billing/offer_view.ts";
import { AppError } from "../../platform/errors.ts";
import { usdToMicros } from "../../platform/money.ts";
import { text } from "../../domain/reads/inputs.ts";
import { toolError } from "./results.ts";
import { defineTool } from "./tool_kit.ts";

/** request_license. */
export const requestLicenseTool = defineTool({
  name: "request_license",
  title: "Request a license",
  description:
    "Ask the publisher for a license (for example fine_tuning, or display beyond your current rights). The publisher answers with an offer (price, term, expiry) or a denial; nothing is billed until your buyer accepts the offer. Say the most you will pay a month with max_monthly_usd. Follow the request with license_request_status.",
  schema: z.strictObject({
    use_case: z.enum(REQUESTABLE_USES as [string, ...string[]]).describe("The use asked for"),
    message: text(2000).describe("Who you are and what you want to do with the content"),
    contact: text(200).optional().describe("How the publisher can reach you"),
    enterprise: z.boolean().optional().describe("Ask for the publisher's enterprise license"),
    max_monthly_usd: z.number().min(0).max(1_000_000).optional().describe(
      "The most you will pay a month, in USD: the publisher cannot offer more",
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  async run(ctx, args) {
    try {
      const r = await createLicenseRequest(ctx.deps.store.db, {
        publisherId: ctx.publisher.id,
        identity: ctx.caller.identity,
        buyerId: ctx.caller.buyerId,
        useCase: args.use_case,
        message: args.message,
        contact: args.contact ?? null,
        enterprise: args.enterprise,
        maxMonthlyMicros: args.max_monthly_usd === undefined
          ? null
          : usdToMicros(args.max_monthly_usd),
      }, { now: ctx.deps.clock.now() });
      const buyerNote = ctx.caller.buyerId
        ? ""
        : ` Approval needs a buyer account: sign up at ${ctx.deps.config.baseUrl}/api/marketplace/signup and register this client.`;
      return {
        content: [{
          type: "text",
          text:
            `License request ${r.requestId} for ${args.use_case} is pending: ${ctx.publisher.name} will make an offer or deny it. Ask license_request_status for its state.${buyerNote}`,
        }],
        structuredContent: { requestId: r.requestId, state: r.state, useCase: args.use_case },
      };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        return toolError(err.message, { status: err.code });
      }
      throw err;
    }
  },
});

/** license_request_status. */
export const licenseStatusTool = defineTool({
  name: "license_request_status",
  title: "License request status",
  description:
    "Where your license requests to this publisher stand: pending, offered (with the price, term and expiry of the offer, which your buyer accepts in the buyer portal or with POST /api/marketplace/offers/{offerId}/accept), accepted, declined, expired, or denied with the publisher's reason. Give request_id for one request; without it, your latest requests.",
  schema: z.strictObject({
    request_id: text(100).optional().describe("The requestId request_license answered"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(ctx, args) {
    const db = ctx.deps.store.db;
    const now = ctx.deps.clock.now();
    let requests = await listIdentityRequests(db, ctx.publisher.id, ctx.caller.identity, {
      limit: 20,
    });
    if (args.request_id !== undefined) {
      const one = await getLicenseRequest(db, ctx.publisher.id, args.request_id);
      // Only the identity that asked learns a request's state.
      if (!one || one.identity !== ctx.caller.identity) {
        return toolError(
          `No license request ${args.request_id} of yours at ${ctx.publisher.name}.`,
          {
            status: "not_found",
          },
        );
      }
      requests = [one];
    }
    const offers = await offersOfRequests(db, requests.map((r) => r.id));
    const shown = requests.map((r) =>
      presentBuyerRequest(r, offers.get(r.id) ?? null, now, ctx.publisher.name)
    );
    return {
      content: [{
        type: "text",
        text: shown.length
          ? shown.map((r) => `${r.requestId} (${r.useCase}): ${r.state}. ${r.summary}`).join("\n")
          : `You have no license requests at ${ctx.publisher.name}; ask with request_license.`,
      }],
      structuredContent: { count: shown.length, requests: shown },
    };
  },
});
