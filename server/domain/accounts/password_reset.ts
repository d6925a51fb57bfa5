/**
 * "Forgot password" for any kind of account (docs/decisions/email.md): the publisher console's
 * users, buyers, and whatever else passes a `ResetAccounts` (the operator console). A request
 * mails each account of the email a single-use link valid for an hour, through the outbox; the
 * token is stored only as its SHA-256 (server/platform/secrets.ts). The answer is the same for
 * known and unknown emails, and takes at least ANSWER_FLOOR_MS either way, so neither its words
 * nor its time tell whether an account exists. Using a link sets the new password (checked like
 * sign-up's) and ends every session of the account.
 */
import type { Client, Executor } from "../../../store/db.ts";
import type { MailOwner } from "../../../store/email_outbox.ts";
import { inWriteTx } from "../../../store/db.ts";
import {
  buyersByEmail,
  insertReset,
  pruneResets,
  publisherUsersByEmail,
  type ResettableAccount,
  setBuyerResetPassword,
  setPublisherUserPassword,
  useReset,
} from "../../../store/password_resets.ts";
import { AppError } from "../../platform/errors.ts";
import { hashSecret, newSecret, wellFormed } from "../../platform/secrets.ts";
import { queueDirectMail } from "../notifications/outbox.ts";
import { RESET_TEMPLATE } from "../notifications/templates.ts";
import { hashPassword } from "./passwords.ts";

/** How long a link works. */
export const RESET_TTL_MS = 3_600_000;
/** The prefix of reset tokens (`fpr_…`, 190 bits and a checksum). */
export const RESET_PREFIX = "fpr";
/** Every request's answer waits at least this long, whatever happened (see above). */
export const ANSWER_FLOOR_MS = 400;

/** One kind of account a reset can be for. */
export interface ResetAccounts {
  /** Stored with the link; a link of one kind never resets another's account. */
  kind: string;
  /** Whose email it is in the outbox (the owner the mail worker renders for). */
  ownerKind: MailOwner["kind"];
  /** How the email names the account: "publisher console". */
  portalName: string;
  /** The page that takes the link, e.g. "/publisher/reset": the token goes in its query. */
  resetPage: string;
  /** The accounts that sign in with this email. */
  byEmail(db: Client, email: string): Promise<ResettableAccount[]>;
  /** Stores the new password hash and ends every session of the account, in `tx`. */
  setPassword(tx: Executor, accountId: string, passwordHash: string): Promise<void>;
}

/** Console users of a publisher. */
export const PUBLISHER_ACCOUNTS: ResetAccounts = {
  kind: "publisher_user",
  ownerKind: "publisher",
  portalName: "Folio publisher console",
  resetPage: "/publisher/reset",
  byEmail: publisherUsersByEmail,
  setPassword: setPublisherUserPassword,
};

/** Buyer accounts. */
export const BUYER_ACCOUNTS: ResetAccounts = {
  kind: "buyer",
  ownerKind: "buyer",
  portalName: "Folio buyer portal",
  resetPage: "/buyer/reset",
  byEmail: buyersByEmail,
  setPassword: setBuyerResetPassword,
};

/** What a reset request is answered, known email or not. */
export const RESET_REQUESTED =
  "If an account uses this email, a link to choose a new password is on its way. It works once, for one hour.";

/** The one refusal of a link that is unknown, used, expired or for another kind of account. */
export function invalidResetLink(): AppError {
  return new AppError(
    400,
    "invalid_reset_link",
    "token: this reset link is not valid any more (used, expired or mistyped); ask for a new one",
    {},
    "token",
  );
}

/** What a request needs: the store, the time, where links point. */
export interface ResetDeps {
  db: Client;
  now: Date;
  baseUrl: string;
}

/**
 * Queues one reset email to each account of `email` (none for an unknown one), each with its own
 * link, in one transaction. Answers nothing that tells which happened.
 */
export async function requestReset(
  deps: ResetDeps,
  accounts: ResetAccounts,
  email: string,
): Promise<void> {
  const found = await accounts.byEmail(deps.db, email.trim());
  const expiresAt = deps.now.getTime() + RESET_TTL_MS;
  // Tokens and their hashes are made whether or not they are used: the same work either way.
  const links = await Promise.all(found.map(async (account) => {
    const token = newSecret(RESET_PREFIX);
    return { account, token, tokenHash: await hashSecret(token) };
  }));
  await inWriteTx(deps.db, async (tx) => {
    await pruneResets(tx, deps.now);
    for (const { account, token, tokenHash } of links) {
      await insertReset(tx, {
        tokenHash,
        kind: accounts.kind,
        accountId: account.accountId,
        expiresAt,
        now: deps.now,
      });
      await queueDirectMail(tx, account.email, {
        dedupe: `reset:${tokenHash}`,
        template: RESET_TEMPLATE,
        owner: { kind: accounts.ownerKind, id: account.ownerId },
        data: {
          portal: accounts.portalName,
          link: `${deps.baseUrl}${accounts.resetPage}?token=${token}`,
        },
        now: deps.now,
        expiresAt: new Date(expiresAt),
      });
    }
  });
}

/**
 * Uses a link: sets the account's new password (already checked by the route's schema) and ends
 * all its sessions, or throws the one invalid-link refusal and changes nothing.
 */
export async function completeReset(
  deps: Omit<ResetDeps, "baseUrl">,
  accounts: ResetAccounts,
  input: { token: string; password: string },
): Promise<void> {
  const token = input.token.trim();
  if (!wellFormed(token, RESET_PREFIX)) throw invalidResetLink();
  const tokenHash = await hashSecret(token);
  // Hashed before the transaction: PBKDF2 takes a while and the write lock should not wait on it.
  const passwordHash = await hashPassword(input.password);
  await inWriteTx(deps.db, async (tx) => {
    const accountId = await useReset(tx, { tokenHash, kind: accounts.kind, now: deps.now });
    if (accountId === null) throw invalidResetLink();
    await accounts.setPassword(tx, accountId, passwordHash);
  });
}
