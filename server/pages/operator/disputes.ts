/**
 * /operator/disputes: every dispute (GET /api/operator/disputes, by state, paged) and each
 * undecided one's accept and refuse forms, a POST to POST /api/operator/disputes/<id>/decision.
 */
import type { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { OperatorDisputesPage } from "../../../ui/operator/disputes.tsx";
import { disputePageSchema } from "../../surfaces/operator/dispute_schemas.ts";
import type { ApiFetch } from "../kit/api.ts";
import { disputeDeskPages } from "../kit/dispute_forms.ts";
import type { OperatorPagesEnv } from "./site.ts";

const NOTICES: Record<string, string> = {
  accept: "Dispute accepted: the credit note is issued, the buyer told, the decision audited.",
  refuse: "Dispute refused: the buyer sees the reason; the decision is audited.",
};

/** The disputes pages. */
export function disputesPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  return disputeDeskPages<OperatorPagesEnv, typeof disputePageSchema>(api, {
    api: "/api/operator/disputes",
    pages: "/operator/disputes",
    schema: disputePageSchema,
    notices: NOTICES,
    render: (c, view) => renderPage(OperatorDisputesPage({ who: c.get("who"), ...view })),
  });
}
