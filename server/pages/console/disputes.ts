/**
 * /publisher/disputes: the publisher's disputes (GET /api/publisher/disputes, by state, paged) and
 * each open one's accept and refuse forms, a POST to POST /api/publisher/disputes/<id>/decision.
 */
import type { Hono } from "hono";
import { ConsoleDisputesPage } from "../../../ui/console/disputes.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { disputePageSchema } from "../../domain/billing/dispute_schemas.ts";
import type { ApiFetch } from "../kit/api.ts";
import { disputeDeskPages } from "../kit/dispute_forms.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const NOTICES: Record<string, string> = {
  accept: "Dispute accepted: the credit note is issued and the buyer is told.",
  refuse: "Dispute refused: the buyer sees your reason.",
};

/** The disputes page and its forms. */
export function disputesPages(api: ApiFetch): Hono<ConsoleEnv> {
  return disputeDeskPages<ConsoleEnv, typeof disputePageSchema>(api, {
    api: "/api/publisher/disputes",
    pages: "/publisher/disputes",
    schema: disputePageSchema,
    notices: NOTICES,
    render: (c, view) => renderPage(ConsoleDisputesPage({ who: c.get("who"), ...view })),
  });
}
