/** What the buyer portal's pages share: where it lives, its session API, its Hono environment. */
import type { z } from "zod";
import { MARKETPLACE, sessionSchema } from "../../surfaces/marketplace/schemas.ts";
import type { PortalEnv, PortalSite } from "../kit/session.ts";

/** The buyer portal, over the marketplace API's sessions (issue 12 part 2). */
export const BUYER_SITE = {
  home: "/buyer",
  sessionApi: `${MARKETPLACE}/session`,
  sessionSchema,
  formCookie: "folio_buyer_csrf",
  // Signing in from the OAuth consent page returns to it (server/surfaces/oauth/authorize_routes.ts).
  alsoReturnsTo: "/api/oauth/authorize",
} satisfies PortalSite;

/** The signed-in buyer, as GET /api/marketplace/session answers for a session (not a key). */
export type BuyerVisitor = z.output<typeof sessionSchema> & {
  csrfToken: string;
  expiresAt: string;
};

/** The buyer portal's Hono environment: the app's, plus the signed-in buyer. */
export type BuyerEnv = PortalEnv<BuyerVisitor>;

/** The marketplace API's path for `rest` (e.g. `/licenses`). */
export function market(rest: string): string {
  return `${MARKETPLACE}${rest}`;
}
