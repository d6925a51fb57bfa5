/**
 * The buyer portal's frame (/buyer): the portal shell of ui/console/shell.tsx with the buyer's
 * sections. Pages are handed their data by server/pages/buyer/.
 */
import { type PortalFrame, PortalShell, type PortalShellProps } from "../console/shell.tsx";

/** The signed-in buyer, as GET /api/marketplace/session answers. */
export interface BuyerWho {
  buyerId: string;
  name: string;
  email: string;
  csrfToken: string;
  expiresAt: string;
}

/** The buyer portal's sections, in navigation order. */
export const BUYER_SECTIONS = [
  ["overview", "/buyer", "Overview"],
  ["catalog", "/buyer/catalog", "Catalog"],
  ["licenses", "/buyer/licenses", "Licenses"],
  ["offers", "/buyer/offers", "Requests & offers"],
  ["usage", "/buyer/usage", "Usage"],
  ["budgets", "/buyer/budgets", "Budgets"],
  ["statements", "/buyer/statements", "Statements"],
  ["items", "/buyer/items", "Items"],
  ["disputes", "/buyer/disputes", "Disputes"],
  ["keys", "/buyer/keys", "Keys & clients"],
  ["crawlers", "/buyer/crawlers", "Crawlers"],
  ["webhooks", "/buyer/webhooks", "Webhooks"],
] as const;

/** A section's id. */
export type BuyerSection = typeof BUYER_SECTIONS[number][0];

/** The buyer portal's frame. */
export const BUYER_FRAME: PortalFrame = {
  home: "/buyer",
  navLabel: "Buyer portal sections",
  sections: BUYER_SECTIONS,
};

/** What every signed-in buyer page is given. */
export interface BuyerShellProps extends Omit<PortalShellProps, "frame" | "who" | "section"> {
  who: BuyerWho;
  section: BuyerSection;
}

/** A signed-in buyer portal page. */
export function BuyerShell(props: BuyerShellProps) {
  return <PortalShell frame={BUYER_FRAME} {...props} />;
}
