/** The inputs and answer of the password reset operations (docs/decisions/email.md). */
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./passwords.ts";

/** POST …/password-reset: the email an account signs in with. */
export const resetRequestSchema = z.strictObject({
  email: z.string().trim().min(3).max(254).refine((s) => /^[^@\s]+@[^@\s]+$/.test(s), {
    error: "is not an email address",
  }).meta({ examples: ["editor@harbor.example"] }),
});

/** POST …/password-reset/confirm: the link's token and the new password (as at sign-up). */
export const resetConfirmSchema = z.strictObject({
  token: z.string().max(200).describe("The `token` of the emailed link's query"),
  password: z.string()
    .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
    .describe(`The new password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`),
});

/** 202 of a reset request, the same whether or not an account has the email. */
export const resetRequestedSchema = z.object({
  message: z.string(),
});
