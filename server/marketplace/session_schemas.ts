/**
 * Inputs of the buyer account routes (issue 12 part 2), one zod schema per input; routes parse with
 * them, and the OpenAPI document is generated from them, so the two cannot drift.
 */
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "../manage/passwords.ts";

// The words POST /signup has always used for a missing field (tests/platform_wire_test.ts).
const requiredString = z.string({ error: "is required and must be a string" });

/** A new password: PASSWORD_MIN to PASSWORD_MAX characters (server/manage/passwords.ts). */
const newPassword = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

/**
 * POST /api/marketplace/signup: name and email (checked by `createBuyer`, whose words the API has
 * always used), and an optional password for signing in to the buyer portal.
 */
export const buyerSignupSchema = z.object({
  name: requiredString,
  email: requiredString,
  password: newPassword.optional(),
});

/** POST /api/marketplace/session: the email and password, or the API key. */
export const buyerSessionSchema = z.union([
  z.strictObject({ email: z.string().max(254), password: z.string().max(1000) }),
  z.strictObject({ apiKey: z.string().max(200) }),
], { error: "must be {email, password} or {apiKey}" });

/**
 * PUT /api/marketplace/password: the new password, and the current one when the account already
 * has a password.
 */
export const buyerPasswordSchema = z.strictObject({
  password: newPassword,
  currentPassword: z.string().max(1000).optional(),
});
