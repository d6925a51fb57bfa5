/**
 * The operator API's inputs and answers (zod), the ones its routes parse with and the OpenAPI
 * document is generated from (server/surfaces/openapi/operator.ts).
 */
import { z } from "zod";
import { ACTOR_KINDS } from "../../domain/audit/audit.ts";

/** POST /api/operator/login. */
export const operatorLoginSchema = z.strictObject({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(200),
});

/** What the password step answers: the session's CSRF token and what comes next. */
export const operatorLoginAnswerSchema = z.object({
  operatorId: z.string(),
  next: z.enum(["second_factor", "enrol"]),
  csrfToken: z.string(),
  expiresAt: z.string(),
});

/** GET /api/operator/login: the session being signed in (either stage). */
export const signInStateSchema = z.object({
  operatorId: z.string(),
  email: z.string(),
  stage: z.enum(["password", "full"]),
  next: z.enum(["second_factor", "enrol", "done"]),
  csrfToken: z.string(),
  expiresAt: z.string(),
});

/** POST /api/operator/login/second-factor: a code from the authenticator, or a recovery code. */
export const secondFactorSchema = z.union([
  z.strictObject({ code: z.string().trim().min(1).max(20) }),
  z.strictObject({ recoveryCode: z.string().trim().min(1).max(40) }),
]);

/** A full session's answer after a second factor. */
export const fullSessionSchema = z.object({
  csrfToken: z.string(),
  expiresAt: z.string(),
});

/** POST /api/operator/enrolment: the secret to add to an authenticator app. */
export const enrolmentSchema = z.object({
  secret: z.string().meta({ description: "Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s)" }),
  uri: z.string().meta({ description: "otpauth:// URI (Key Uri Format)" }),
  qrSvg: z.string().meta({ description: "The URI as a QR code, SVG" }),
});

/** POST /api/operator/enrolment/confirm. */
export const confirmSchema = z.strictObject({ code: z.string().trim().min(1).max(20) });

/** Recovery codes, shown once. */
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()),
});

/** The answer of enrolment's confirmation. */
export const enrolledSchema = recoveryCodesSchema.extend(fullSessionSchema.shape);

/** GET /api/operator/session: who is signed in. */
export const operatorSessionSchema = z.object({
  operatorId: z.string(),
  email: z.string(),
  name: z.string(),
  via: z.enum(["session", "key"]),
  csrfToken: z.string().nullable(),
  expiresAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});

/** An operator key as listed. */
export const operatorKeySchema = z.object({
  id: z.string(),
  operatorId: z.string(),
  name: z.string(),
  hint: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

/** POST /api/operator/keys. */
export const newKeySchema = z.strictObject({ name: z.string().trim().min(1).max(80) });

/** Its answer: the key, once. */
export const createdKeySchema = z.object({ key: operatorKeySchema, apiKey: z.string() });

/** GET /api/operator/keys. */
export const keyListSchema = z.object({ keys: z.array(operatorKeySchema) });

/** GET /api/operator/operators. */
export const operatorListSchema = z.object({
  operators: z.array(z.object({
    id: z.string(),
    email: z.string(),
    secondFactor: z.boolean(),
    createdAt: z.string(),
  })),
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD").refine(
  (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(s).toISOString().startsWith(s),
  "must be a real calendar date",
);

/** The audit log's filters (the list and the CSV). */
const auditFilters = {
  actorKind: z.enum(ACTOR_KINDS).optional(),
  actorId: z.string().trim().min(1).max(200).optional(),
  /** An exact action, or a prefix ending in "." (`invoice.`). */
  action: z.string().trim().regex(/^[a-z0-9_.]{1,100}$/, "must be an action such as invoice.paid")
    .optional(),
  subjectKind: z.string().trim().min(1).max(100).optional(),
  subjectId: z.string().trim().min(1).max(200).optional(),
  /** First UTC day, inclusive. */
  from: day.optional(),
  /** Last UTC day, inclusive. */
  to: day.optional(),
};

const fromBeforeTo = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;

/** GET /api/operator/audit/csv query. */
export const auditExportQuerySchema = z.strictObject(auditFilters).refine(fromBeforeTo, {
  message: "must not be before from",
  path: ["to"],
});

/** GET /api/operator/audit query. */
export const auditQuerySchema = z.strictObject({
  ...auditFilters,
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** `nextCursor` of the previous page. */
  cursor: z.string().regex(/^\d{1,15}$/, "must be a nextCursor from a previous page").optional(),
}).refine(fromBeforeTo, { message: "must not be before from", path: ["to"] });

/** One audit entry. */
export const auditEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: z.object({ kind: z.enum(ACTOR_KINDS), id: z.string() }),
  action: z.string(),
  subject: z.object({ kind: z.string(), id: z.string() }),
  before: z.unknown().meta({ description: "The state before (JSON), or null" }),
  after: z.unknown().meta({ description: "The state after (JSON), or null" }),
  reason: z.string().nullable(),
});

/** GET /api/operator/audit. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
