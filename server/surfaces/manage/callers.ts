/**
 * Who asked, as the management API shows it: the identity a call, a reader intent or a license
 * request recorded (server/platform/identity.ts: `buyer:<id>` for a buyer key, `oauth:<clientId>` for an
 * access token, `publisher:<id>` for the dashboard's own calls) resolved to names. Everything else
 * (`sess:`, `ip:`, `crawler:`, none) is anonymous, and an anonymous caller's address is never shown.
 */
import { callerRecords } from "../../../store/callers.ts";
import type { Client } from "../../../store/db.ts";

/** A caller as the management API shows it. */
export type Caller =
  | { kind: "buyer"; buyerId: string; name: string | null }
  | {
    kind: "oauth";
    clientId: string;
    clientName: string | null;
    /** The email the reader gave on the consent screen, if one was asked for. */
    email: string | null;
    /** The buyer the install is registered to, when it is. */
    buyerId?: string;
  }
  | { kind: "anonymous" }
  | { kind: "publisher" };

/** The identity of the publisher's own dashboard calls (the passages playground). */
export function publisherIdentity(publisherId: string): string {
  return `publisher:${publisherId}`;
}

/** Resolves every identity in one lookup per kind; returns how to show each. */
export async function describeCallers(
  db: Client,
  identities: readonly (string | null | undefined)[],
): Promise<(identity: string | null | undefined) => Caller> {
  const ids = (prefix: string) => [
    ...new Set(
      identities.filter((i): i is string => !!i?.startsWith(prefix)).map((i) =>
        i.slice(prefix.length)
      ),
    ),
  ];
  const { buyers, clients } = await callerRecords(db, {
    buyerIds: ids("buyer:"),
    clientIds: ids("oauth:"),
  });
  return (identity) => {
    if (identity?.startsWith("buyer:")) {
      const buyerId = identity.slice("buyer:".length);
      return { kind: "buyer", buyerId, name: buyers.get(buyerId) ?? null };
    }
    if (identity?.startsWith("oauth:")) {
      const clientId = identity.slice("oauth:".length);
      const client = clients.get(clientId);
      return {
        kind: "oauth",
        clientId,
        clientName: client?.name ?? null,
        email: client?.email ?? null,
        ...(client?.buyerId ? { buyerId: client.buyerId } : {}),
      };
    }
    if (identity?.startsWith("publisher:")) return { kind: "publisher" };
    return { kind: "anonymous" };
  };
}
