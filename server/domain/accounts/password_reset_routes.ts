/**
 * The password reset operations as routes (docs/decisions/email.md), mounted by each API whose
 * accounts sign in with a password: POST /password-reset (ask for a link) and POST
 * /password-reset/confirm (use it). Both are limited per client address; a request is limited
 * per email too. JSON only (415 otherwise), like sign-in, so no other site's form can post them.
 */
import { Hono } from "hono";
import { sha256Hex } from "../../../store/ids.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import type { jsonBodies } from "../../platform/json_body.ts";
import { addressBlock, clientAddress, throttle } from "../../platform/throttle.ts";
import {
  ANSWER_FLOOR_MS,
  completeReset,
  requestReset,
  RESET_REQUESTED,
  type ResetAccounts,
} from "./password_reset.ts";
import { resetConfirmSchema, resetRequestSchema } from "./password_reset_schemas.ts";

/** Requests per address, per email, and link uses per address, each per hour. */
export const RESET_LIMITS = {
  requestsPerAddress: { limit: 20, windowMs: 3_600_000 },
  requestsPerEmail: { limit: 3, windowMs: 3_600_000 },
  confirmsPerAddress: { limit: 30, windowMs: 3_600_000 },
} as const;

/** The refusal when this node sends no email (FOLIO_SMTP_URL unset): the same for every email. */
export function emailOff(): AppError {
  return new AppError(
    503,
    "email_off",
    "Email is off on this node, so no reset link can be sent: ask the operator to reset your password",
  );
}

/** The two routes for one kind of account. */
export function passwordResetRoutes(
  deps: AppDeps,
  opts: { accounts: ResetAccounts; json: ReturnType<typeof jsonBodies> },
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const scope = `reset:${opts.accounts.kind}`;

  app.post("/password-reset", opts.json(resetRequestSchema), async (c) => {
    const started = performance.now();
    const { email } = c.req.valid("json");
    const ip = addressBlock(clientAddress(c));
    await throttle(deps, `${scope}:ip:${ip}`, RESET_LIMITS.requestsPerAddress);
    // Hashed, so that addresses typed at the form are not stored.
    const who = await sha256Hex(email.toLowerCase());
    await throttle(deps, `${scope}:email:${who}`, RESET_LIMITS.requestsPerEmail);
    if (!deps.config.mail) throw emailOff();
    await requestReset(
      { db: deps.store.db, now: deps.clock.now(), baseUrl: deps.config.baseUrl },
      opts.accounts,
      email,
    );
    const wait = ANSWER_FLOOR_MS - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    c.header("Cache-Control", "no-store");
    return c.json({ message: RESET_REQUESTED }, 202);
  });

  app.post("/password-reset/confirm", opts.json(resetConfirmSchema), async (c) => {
    const ip = addressBlock(clientAddress(c));
    await throttle(deps, `${scope}:confirm:${ip}`, RESET_LIMITS.confirmsPerAddress);
    await completeReset(
      { db: deps.store.db, now: deps.clock.now() },
      opts.accounts,
      c.req.valid("json"),
    );
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });
  return app;
}
