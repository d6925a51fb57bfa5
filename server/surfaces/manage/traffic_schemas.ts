/** The answers of GET /api/publisher/analytics/traffic and /analytics/articles (issue 34). */
import { z } from "zod";
import { agentSchema } from "./calls_schemas.ts";

const window = {
  days: z.int(),
  from: z.string().meta({ description: "First UTC day of the window" }),
  to: z.string().meta({ description: "Last UTC day of the window (today)" }),
};

/** Calls per caller per UTC day: the busiest callers one series each, the rest as others. */
export const trafficSchema = z.object({
  ...window,
  dayLabels: z.array(z.string()).meta({ description: "The window's days, oldest first" }),
  series: z.array(z.object({
    agent: agentSchema,
    total: z.int(),
    daily: z.array(z.int()).meta({ description: "Calls per day, in dayLabels' order" }),
  })),
  others: z.object({
    callers: z.int().meta({ description: "How many callers are summed here" }),
    total: z.int(),
    daily: z.array(z.int()),
  }),
  total: z.int(),
});

/** The most read or most earning articles of a window. */
export const topArticlesSchema = z.object({
  ...window,
  by: z.enum(["reads", "earnings"]),
  articles: z.array(z.object({
    id: z.string(),
    title: z.string().nullable().meta({ description: "null once the article is deleted" }),
    url: z.string().nullable(),
    reads: z.int(),
    chargedReads: z.int(),
    earningsUsdCents: z.number().meta({
      description: "Per-read charges, to a hundredth of a cent",
    }),
  })),
});

/** GET /api/publisher/analytics/traffic query. */
export const trafficQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30),
  top: z.coerce.number().int().min(1).max(12).default(6),
});

/** GET /api/publisher/analytics/articles query. */
export const topArticlesQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30),
  by: z.enum(["reads", "earnings"]).default("reads"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
