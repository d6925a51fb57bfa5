/** What the buyer portal's pages share: where it lives, its session API, its Hono environment. */
import type { BuyerWho } from "../../../ui/buyer/shell.tsx";
import type { PortalEnv, PortalSite } from "../kit/session.ts";

/** The buyer portal, over the marketplace API's sessions (issue 12 part 2). */
export const BUYER_SITE: PortalSite = {
  home: "/buyer",
  sessionApi: "/api/marketplace/session",
  formCookie: "folio_buyer_csrf",
};

/** The buyer portal's Hono environment: the app's, plus the signed-in buyer. */
export type BuyerEnv = PortalEnv<BuyerWho>;

/** The marketplace API's path for `rest` (e.g. `/licenses`). */
export function market(rest: string): string {
  return `/api/marketplace${rest}`;
}
