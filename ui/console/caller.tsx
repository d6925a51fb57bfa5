/**
 * Who made a call or asked a question, as the management API names them (`caller` on calls and
 * intents): a buyer, an OAuth client with the email its user consented with, an anonymous reader,
 * or the publisher itself. Rows from before the API named callers show a dash.
 */

import type { z } from "zod";
import type { callerSchema } from "../../server/surfaces/manage/openapi_schemas.ts";

/** The caller of one call or intent (GET /api/publisher/calls and /intents, `caller`). */
export type Caller = z.output<typeof callerSchema>;

/** A caller in words; `null` or an unknown kind is a dash. */
export function CallerName(props: { caller?: Caller | null }) {
  const c = props.caller;
  switch (c?.kind) {
    case "buyer":
      return (
        <span>
          <strong>{c.name}</strong> <span class="muted small">buyer</span>
        </span>
      );
    case "oauth":
      return (
        <span>
          <strong>{c.clientName || "OAuth app"}</strong>
          {c.email ? <span class="small">{` · ${c.email}`}</span> : null}{" "}
          <span class="muted small">
            {c.buyerId ? "OAuth app of a buyer" : "OAuth app"}
          </span>
        </span>
      );
    case "anonymous":
      return <span class="muted">Anonymous</span>;
    case "publisher":
      return <span class="muted">You</span>;
    default:
      return <span class="muted">—</span>;
  }
}
