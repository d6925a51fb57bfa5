/**
 * The operator console as a portal of the pages' kit (server/pages/kit/session.ts): where it
 * lives, the session API that says who is signed in, and the Hono environments of its pages.
 * A page module exports `<area>Pages(api): Hono<OperatorPagesEnv>` and reads `c.get("who")`.
 */
import { operatorSessionSchema } from "../../surfaces/operator/schemas.ts";
import type { PortalEnv, PortalSite, VisitorEnv } from "../kit/session.ts";
import type { OperatorWho } from "../../../ui/operator/shell.tsx";

/** The operator console. */
export const OPERATOR_SITE = {
  home: "/operator",
  sessionApi: "/api/operator/session",
  sessionSchema: operatorSessionSchema,
  formCookie: "folio_operator_csrf",
} satisfies PortalSite;

/** Before sign-in is required (the sign-in pages). */
export type OperatorVisitorEnv = VisitorEnv<OperatorWho>;

/** A signed-in operator page: `c.get("who")` is the operator, with the session's CSRF token. */
export type OperatorPagesEnv = PortalEnv<OperatorWho>;
