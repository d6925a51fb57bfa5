/**
 * The password reset operations (docs/decisions/email.md), documented once and served under each
 * API whose accounts sign in with a password: /api/publishers and /api/marketplace.
 */
import {
  resetConfirmSchema,
  resetRequestedSchema,
  resetRequestSchema,
} from "../../domain/accounts/password_reset_schemas.ts";
import type { Paths } from "./kit.ts";

/** The paths, relative to the API's prefix; `who` names the accounts in the words. */
export function passwordResetPaths(
  who: "publisher console user" | "buyer account" | "operator",
): Paths {
  return {
    "/password-reset": {
      post: {
        summary: "Ask for a password reset link",
        description: `Emails each ${who} that signs in with this email a link to choose a new ` +
          "password: it works once, for one hour. The answer is the same 202, in about the same " +
          "time, whether or not an account has the email. Limited per client address and per " +
          "email (429 with Retry-After); 503 email_off when this node sends no email.",
        body: resetRequestSchema,
        example: { email: "editor@harbor.example" },
        ok: [202, resetRequestedSchema, "Accepted; a link is sent if an account has the email"],
        errors: [400, 413, 415, 429, 503],
      },
    },
    "/password-reset/confirm": {
      post: {
        summary: "Choose a new password with a reset link",
        description: "Takes the link's token and the new password (10 to 200 characters, as at " +
          "sign-up). Every session of the account ends; sign in with the new password. A used, " +
          "expired or unknown link is 400 invalid_reset_link and changes nothing.",
        body: resetConfirmSchema,
        example: { token: "fpr_…", password: "a new long passphrase" },
        ok: [204, null, "Password changed"],
        errors: [400, 413, 415, 429],
      },
    },
  };
}
