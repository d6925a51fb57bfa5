/**
 * The operator API's part of the OpenAPI document (issue 38; docs/decisions/operator.md), from
 * the zod schemas its routes parse with (server/surfaces/operator/schemas.ts). The areas built on
 * the operator add their paths here with `authed(...)`, one block each.
 */
import * as io from "../operator/schemas.ts";
import { type Api, type Operation, pathParam, queryParamsOf } from "./kit.ts";
import { passwordResetPaths } from "./password_reset.ts";

const ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field and the problem, and `param` the field",
  401: "Missing or invalid operator key or session, or a sign-in step not passed",
  403: "A publisher's or buyer's credential, or a cookie-authenticated change without a " +
    "matching X-CSRF-Token",
  404: "Not found",
  409: "Conflicts with the current state",
  413: "Body too large",
  415: "Unsupported media type",
  429: "Too many attempts from this address; see Retry-After",
  503: "Email is off on this node (FOLIO_SMTP_URL unset): no reset link can be sent",
};

/** The sign-in steps after the password: the session cookie of that step and its CSRF token. */
const SIGNING_IN = [{ operatorSession: [], csrf: [] }];
const BODY_ERRORS = [400, 413, 415];
const CSV = { "text/csv": { schema: { type: "string" } } };

/** The operator API. */
export function operatorApi(): Api {
  const authed = (o: Omit<Operation, "auth">): Operation => ({ ...o, auth: true });
  return {
    tag: "Operator",
    description: "The operator console's own API, for whoever runs the node. Authenticate with " +
      "an operator key (`Authorization: Bearer opk_...`, made in the console or the API) or the " +
      "operator session cookie after both sign-in steps (password, then a TOTP or recovery " +
      "code) plus its X-CSRF-Token on changes. Publisher and buyer credentials are refused " +
      "(403). Every change is recorded in the audit log.",
    auth: {
      security: [{ operatorKey: [] }, { operatorSession: [], csrf: [] }],
      errors: [401, 403],
    },
    errors: ERRORS,
    errorSchema: "Error",
    paths: {
      "/api/operator/login": {
        post: {
          summary: "Sign in, step one: email and password",
          description: "Sets the operator session cookie for the second step (10 minutes). " +
            "`next` says whether to pass the second factor or, the first time, enrol one.",
          body: io.operatorLoginSchema,
          example: { email: "ops@example.com", password: "a long passphrase" },
          ok: [200, io.operatorLoginAnswerSchema],
          errors: [...BODY_ERRORS, 401, 429],
        },
        get: {
          summary: "The sign-in in progress",
          security: SIGNING_IN,
          ok: [200, io.signInStateSchema],
          errors: [401],
        },
      },
      "/api/operator/login/second-factor": {
        post: {
          summary: "Sign in, step two: a TOTP code or a recovery code",
          description: "A code is accepted once (a replay within its window is refused); a " +
            "recovery code works once. The session becomes full for 12 hours.",
          security: SIGNING_IN,
          body: io.secondFactorSchema,
          example: { code: "123456" },
          ok: [200, io.fullSessionSchema],
          errors: [...BODY_ERRORS, 401, 403, 429],
        },
      },
      "/api/operator/enrolment": {
        post: {
          summary: "Enrol a second factor: the TOTP secret to add to an authenticator",
          description: "Only before the first enrolment; the same secret until it is confirmed, " +
            "never shown after.",
          security: SIGNING_IN,
          ok: [200, io.enrolmentSchema],
          errors: [401, 403, 409],
        },
      },
      "/api/operator/enrolment/confirm": {
        post: {
          summary: "Confirm the enrolment with a code: ten recovery codes, shown once",
          security: SIGNING_IN,
          body: io.confirmSchema,
          example: { code: "123456" },
          ok: [200, io.enrolledSchema],
          errors: [...BODY_ERRORS, 401, 403, 409, 429],
        },
      },
      ...Object.fromEntries(
        Object.entries(passwordResetPaths("operator"))
          .map(([p, ops]) => [`/api/operator${p}`, ops]),
      ),
      "/api/operator/logout": {
        post: { summary: "Sign out (ends the session)", ok: [204, null] },
      },
      "/api/operator/session": {
        get: authed({ summary: "Who is signed in", ok: [200, io.operatorSessionSchema] }),
      },
      "/api/operator/operators": {
        get: authed({ summary: "The node's operators", ok: [200, io.operatorListSchema] }),
      },
      "/api/operator/keys": {
        get: authed({
          summary: "Operator keys (hints, never the keys)",
          ok: [200, io.keyListSchema],
        }),
        post: authed({
          summary: "Make an operator key (shown once)",
          body: io.newKeySchema,
          example: { name: "month-end script" },
          ok: [201, io.createdKeySchema],
          errors: BODY_ERRORS,
        }),
      },
      "/api/operator/keys/{id}": {
        delete: authed({
          summary: "Revoke an operator key (at once)",
          params: [pathParam("id")],
          ok: [200, io.operatorKeySchema],
          errors: [404, 409],
        }),
      },
      "/api/operator/recovery-codes": {
        post: authed({
          summary: "New recovery codes (the old ones stop working), shown once",
          ok: [201, io.recoveryCodesSchema],
        }),
      },
      "/api/operator/recovery-codes/reveal": {
        post: authed({
          summary: "The recovery codes this session just made, once (the console's page)",
          ok: [200, io.recoveryCodesSchema],
          errors: [404],
        }),
      },
      "/api/operator/audit": {
        get: authed({
          summary: "The audit log, newest first, filtered and paged",
          params: queryParamsOf(io.auditQuerySchema),
          ok: [200, io.auditPageSchema],
          errors: [400],
        }),
      },
      "/api/operator/audit/csv": {
        get: authed({
          summary: "The audit log as CSV, same filters",
          params: queryParamsOf(io.auditExportQuerySchema),
          ok: [200, CSV],
          errors: [400],
        }),
      },
    },
  };
}
