/** The operator's disputes wire: the billing domain's schemas (one set for every surface). */
export {
  disputeDecisionSchema,
  disputePageSchema,
  disputeSchema,
  operatorDisputeQuerySchema,
} from "../../domain/billing/dispute_schemas.ts";
