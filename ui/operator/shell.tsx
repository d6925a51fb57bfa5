/**
 * The operator console's frame (/operator): the portals' shell (ui/console/shell.tsx) with the
 * operator's sections. A new page adds its section here (id, link, label) and passes its id as
 * `section` to `OperatorShell` (docs/decisions/operator.md "How to add an operator route and page").
 */
import type { ComponentChildren } from "preact";
import { type PortalFrame, PortalShell } from "../console/shell.tsx";

/** The signed-in operator, as GET /api/operator/session answers (with a session's CSRF token). */
export interface OperatorWho {
  operatorId: string;
  email: string;
  name: string;
  via: "session" | "key";
  csrfToken: string;
  expiresAt: string | null;
  recoveryCodesLeft: number;
}

/** The console's sections, in navigation order. */
export const OPERATOR_SECTIONS = [
  ["desk", "/operator", "Desk"],
  ["invoices", "/operator/invoices", "Invoices"],
  ["disputes", "/operator/disputes", "Disputes"],
  ["suspensions", "/operator/suspensions", "Suspensions"],
  ["payouts", "/operator/payouts", "Payouts"],
  ["audit", "/operator/audit", "Audit log"],
  ["account", "/operator/account", "Operators & account"],
] as const;

/** A section's id. */
export type OperatorSection = typeof OPERATOR_SECTIONS[number][0];

/** The operator console's frame. */
export const OPERATOR_FRAME: PortalFrame = {
  home: "/operator",
  navLabel: "Operator sections",
  sections: OPERATOR_SECTIONS,
};

/** A signed-in operator page. */
export function OperatorShell(
  props: {
    who: OperatorWho;
    section: OperatorSection;
    title: string;
    notice?: string | null;
    problem?: string | null;
    children: ComponentChildren;
  },
) {
  return (
    <PortalShell
      frame={OPERATOR_FRAME}
      who={{ name: "Operator", email: props.who.email, csrfToken: props.who.csrfToken }}
      section={props.section}
      title={props.title}
      notice={props.notice}
      problem={props.problem}
    >
      {props.children}
    </PortalShell>
  );
}

/**
 * A section whose lists are still to come: what it will hold, and the empty state. The areas'
 * own pages replace it (issue 38 parts 2 to 6).
 */
export function AreaPage(
  props: {
    who: OperatorWho;
    section: OperatorSection;
    title: string;
    intro: string;
    empty: string;
  },
) {
  return (
    <OperatorShell who={props.who} section={props.section} title={props.title}>
      <p class="muted">{props.intro}</p>
      <section class="card" aria-labelledby="empty-title">
        <h2 id="empty-title">Nothing here yet</h2>
        <p>{props.empty}</p>
        <p>
          Every change made here is recorded in the <a href="/operator/audit">audit log</a>.
        </p>
      </section>
    </OperatorShell>
  );
}
