/**
 * Operator keys (`opk_...`, server/platform/secrets.ts): for scripts on the operator API. Shown
 * once when made, stored as a SHA-256 hash with a hint; revoking one is immediate. Both audited.
 */
import { inWriteTx } from "../../../store/db.ts";
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  getOperatorKey,
  insertOperatorKey,
  type OperatorKey,
  revokeOperatorKey,
} from "../../../store/operators.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { hashSecret, hint, newSecret } from "../../platform/secrets.ts";
import { type Actor, audit } from "../audit/audit.ts";
import { OPERATOR_KEY_PREFIX } from "./accounts.ts";

/** A key as listed and answered (never the key itself). */
export function keyView(k: OperatorKey) {
  return {
    id: k.id,
    operatorId: k.operatorId,
    name: k.name,
    hint: k.hint,
    createdAt: new Date(k.createdAt).toISOString(),
    revokedAt: k.revokedAt === null ? null : new Date(k.revokedAt).toISOString(),
  };
}

/** Makes a key for `operatorId`; the key is in the answer only. */
export async function createOperatorKey(
  db: Client,
  operatorId: string,
  name: string,
  options: { now: Date; actor: Actor },
): Promise<{ key: ReturnType<typeof keyView>; apiKey: string }> {
  const apiKey = newSecret(OPERATOR_KEY_PREFIX);
  const id = newId("opkey");
  return await inWriteTx(db, async (tx) => {
    await insertOperatorKey(tx, {
      id,
      operatorId,
      name,
      keyHash: await hashSecret(apiKey),
      hint: hint(apiKey),
      now: options.now,
    });
    const key = keyView((await getOperatorKey(tx, id))!);
    await audit(tx, {
      actor: options.actor,
      action: "operator_key.created",
      subject: { kind: "operator_key", id },
      after: key,
      now: options.now,
    });
    return { key, apiKey };
  });
}

/** Revokes a key (any operator's: operators run the node together); 409 when it was already. */
export async function revokeKey(
  db: Client,
  id: string,
  options: { now: Date; actor: Actor },
): Promise<ReturnType<typeof keyView>> {
  return await inWriteTx(db, async (tx) => {
    const before = await getOperatorKey(tx, id);
    if (!before) throw notFound(`The operator key ${id}`);
    if (!(await revokeOperatorKey(tx, id, options.now))) {
      throw new AppError(409, "already_revoked", `The operator key ${id} is revoked already`);
    }
    const after = keyView((await getOperatorKey(tx, id))!);
    await audit(tx, {
      actor: options.actor,
      action: "operator_key.revoked",
      subject: { kind: "operator_key", id },
      before: keyView(before),
      after,
      now: options.now,
    });
    return after;
  });
}
