/** The answer of GET /api/marketplace/rights/{publisherId} (server/surfaces/marketplace/rights_routes.ts). */
import { z } from "zod";
import { USE_CASES } from "../../../store/vocabulary.ts";

const word = z.enum(["granted", "denied"]);
const source = z.enum(["default", "license", "none"]);
const perUse = <T extends z.ZodType>(s: T) =>
  z.object(
    Object.fromEntries(USE_CASES.map((u) => [u, s])) as Record<(typeof USE_CASES)[number], T>,
  );

/** One buyer's rights with one publisher, by the rights table (docs/decisions/licensing.md). */
export const heldRightsSchema = z.object({
  publisherId: z.string(),
  rights: perUse(word).describe(
    "What this buyer's license blocks say for the publisher's articles (a book chapter's " +
      "author-contract ceiling may narrow them)",
  ),
  grantedBy: perUse(source).describe(
    "default: the publisher grants it to everyone; license: a license in force grants it to " +
      "this buyer (a subscription to the end of its paid month, an enterprise license or an " +
      "approved request for its term); none: not granted",
  ),
  forSale: z.array(z.enum(["summarization", "display", "rag"])).describe(
    "The uses a subscription may cover now: a withdrawn use cannot be bought anew",
  ),
});
