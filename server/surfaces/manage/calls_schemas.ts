/**
 * GET /api/publisher/calls and /calls/csv (issue 34): the query (date range, filters, cursor) and
 * the answer, each call with the article it read, how it went and who made it.
 */
import { z } from "zod";
import { CALL_OUTCOMES, CALL_ROWS } from "../../../store/call_list.ts";
import { SURFACES } from "../../../store/vocabulary.ts";
import { callerSchema } from "./openapi_schemas.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD").refine(
  (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(s).toISOString().startsWith(s),
  "must be a real calendar date",
);

/** The filters both the list and the CSV take. */
const filters = {
  /** First UTC day, inclusive. */
  from: day.optional(),
  /** Last UTC day, inclusive. */
  to: day.optional(),
  surface: z.enum(SURFACES).optional(),
  outcome: z.enum(CALL_OUTCOMES).optional(),
  /** Who called: an `agent.key` of a listed call (`crawler:GPTBot`, `buyer:…`, `anonymous`). */
  agent: z.string().trim().min(1).max(200).optional(),
  /** An article id: only calls that read it. */
  article: z.string().trim().min(1).max(200).optional(),
  /** `reads`: only calls that read an article. */
  only: z.enum(["reads"]).optional(),
  /** Which rows: calls (default), ok, error, trace (protocol rows) or all. */
  status: z.enum(CALL_ROWS).optional(),
};

/** GET /api/publisher/calls/csv query. */
export const callExportQuerySchema = z.strictObject(filters).refine(
  (q) => !q.from || !q.to || q.from <= q.to,
  { message: "must not be before from", path: ["to"] },
);

/** GET /api/publisher/calls query. */
export const callQuerySchema = z.strictObject({
  ...filters,
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** `nextCursor` of the previous page. */
  cursor: z.string().regex(/^\d{1,15}\.\d{1,15}$/, "must be a nextCursor from a previous page")
    .optional(),
}).refine((q) => !q.from || !q.to || q.from <= q.to, {
  message: "must not be before from",
  path: ["to"],
});

/** Who called, for grouping and filtering: the key to filter by and a name for people. */
export const agentSchema = z.object({
  key: z.string().meta({
    description: "`crawler:<family>`, `agent:<host>`, `buyer:<id>`, " +
      "`oauth:<clientId>`, `publisher:<id>` or `anonymous`",
  }),
  name: z.string(),
  kind: z.enum(["crawler", "agent", "buyer", "oauth", "publisher", "anonymous"]),
});

/** One call as listed. */
export const listedCallSchema = z.object({
  id: z.int(),
  at: z.iso.datetime(),
  surface: z.string(),
  tool: z.string(),
  userAgent: z.string(),
  latencyMs: z.number(),
  status: z.enum(["ok", "error", "trace"]),
  outcome: z.enum([...CALL_OUTCOMES, "trace"]).meta({
    description: "How it went: `priced` is a 402 quote, `refused` a 401/403/429/451, " +
      "`not_found` a 404, `failed` any other error; `trace` for a protocol row",
  }),
  httpStatus: z.int().nullable(),
  requestId: z.string().nullable(),
  caller: callerSchema,
  agent: agentSchema,
  article: z.object({ id: z.string(), title: z.string().nullable(), url: z.string().nullable() })
    .nullable().meta({
      description: "The article the call read (the first, for a call that read several); " +
        "title and url are null once it is deleted",
    }),
});

/**
 * GET /api/publisher/calls: calls newest first (docs/SPEC.md "Events"), without the protocol
 * trace rows (`_method:*`, status trace) unless `status` asks for them; `limit` per page,
 * `nextCursor` for the next.
 */
export const callListSchema = z.object({
  calls: z.array(listedCallSchema),
  total: z.int().meta({ description: "How many calls match the filters, on every page" }),
  nextCursor: z.string().nullable(),
});
