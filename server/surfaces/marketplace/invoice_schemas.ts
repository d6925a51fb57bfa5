/** Schemas of the buyer's invoices: shared with the operator API, so they live in the domain. */
export * from "../../domain/billing/invoice_schemas.ts";
