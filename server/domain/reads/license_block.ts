/** The license block returned with an article on every surface (docs/SPEC.md "License block"). */
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { type Decision, REQUEST_VIA, type UsePrices } from "../licensing/mod.ts";
import { publisherUrls } from "../../platform/urls.ts";

/** docs/SPEC.md "License block". */
export interface LicenseBlock {
  licensor: string;
  rights: Record<"summarization" | "display" | "rag" | "fine_tuning", "granted" | "denied">;
  pricingUsdCents: UsePrices;
  termsUrl: string;
  requestVia: string;
}

/** The license block for a decision about one of `publisher`'s articles. */
export function licenseBlock(
  config: Pick<Config, "baseUrl">,
  publisher: Publisher,
  decision: Decision,
): LicenseBlock {
  const r = decision.rights;
  const flag = (b: boolean) => (b ? "granted" : "denied") as "granted" | "denied";
  return {
    licensor: publisher.name,
    rights: {
      summarization: flag(r.summarization),
      display: flag(r.display),
      rag: flag(r.rag),
      fine_tuning: flag(r.fine_tuning),
    },
    pricingUsdCents: decision.pricingUsdCents,
    termsUrl: publisherUrls(config, publisher).terms,
    requestVia: REQUEST_VIA,
  };
}
