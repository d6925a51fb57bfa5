/** Fixtures of the payout tests: the demo publisher's payee details put through the API. */
import type { TestFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

/** The demo's IBAN in the tests (a valid one: the checksum holds). */
export const IBAN = "DE89 3704 0044 0532 0130 00";

/** Puts the demo's payee details (an IBAN) through the API. */
export async function setPayee(folio: TestFolio, body: Record<string, unknown> = {}) {
  return await sendJson(folio, "PUT", "/api/publisher/payee", {
    legalName: "Demo Media GmbH",
    country: "DE",
    currency: "EUR",
    method: "iban",
    iban: IBAN,
    bic: "COBADEFFXXX",
    ...body,
  }, bearer(folio.seeded!.apiKey));
}
