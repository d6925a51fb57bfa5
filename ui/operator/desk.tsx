/**
 * The operator's desk (/operator): an overview of the node. For now who runs it and the latest
 * recorded actions; the month's money (billed, collected, outstanding, payouts) joins it with
 * receivables and payouts (issue 38 part 6).
 */
import { Figure } from "../console/shell.tsx";
import { type AuditEntry, AuditTable } from "./audit.tsx";
import { OperatorShell, type OperatorWho } from "./shell.tsx";

/** What the desk shows. */
export interface DeskProps {
  who: OperatorWho;
  operators: number;
  activeKeys: number;
  latest: AuditEntry[];
}

/** GET /operator. */
export function DeskPage(props: DeskProps) {
  return (
    <OperatorShell who={props.who} section="desk" title="Desk">
      <div class="grid">
        <Figure value={String(props.operators)} label="operators" />
        <Figure value={String(props.activeKeys)} label="operator keys in use" />
        <Figure value={String(props.who.recoveryCodesLeft)} label="of your recovery codes left" />
      </div>
      <section class="card" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest actions</h2>
        {props.latest.length === 0
          ? <p>Nothing has been recorded yet.</p>
          : <AuditTable entries={props.latest} />}
        <p>
          <a href="/operator/audit">The whole audit log</a>
        </p>
      </section>
    </OperatorShell>
  );
}
