/**
 * The webhook operations' zod schemas, shared by the management API, the marketplace, their
 * OpenAPI document and the pages (one shape, two owners).
 */
import { z } from "zod";

/** POST …/webhook-endpoints. */
export const endpointInputSchema = z.strictObject({
  url: z.string().min(1).max(2048)
    .describe("Where events are posted: https, a public address")
    .meta({ examples: ["https://example.com/folio/webhooks"] }),
  events: z.array(z.string().min(1).max(64)).min(1).max(16)
    .describe('The event types to send, or ["*"] for all of the owner\'s types')
    .meta({ examples: [["license_request.created"]] }),
  description: z.string().max(200).optional().describe("A note for yourself"),
});

export const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  secretHint: z.string().describe("whsec_… and the secret's last four characters"),
  createdAt: z.string(),
  secretRotatedAt: z.string().nullable(),
});

export const endpointListSchema = z.object({ endpoints: z.array(endpointSchema) });
export const endpointOneSchema = z.object({ endpoint: endpointSchema });

/** The answer that carries a secret: shown once. */
export const endpointSecretSchema = z.object({
  endpoint: endpointSchema,
  secret: z.string().describe("The signing secret (whsec_…): shown once, store it now"),
});

export const deliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  state: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.int(),
  nextAttemptAt: z.string().nullable().describe("When a pending delivery is tried next"),
  replayOf: z.string().nullable().describe("The delivery this one replays"),
  createdAt: z.string(),
  lastStatus: z.int().nullable().describe("The receiver's status at the last attempt"),
  lastError: z.string().nullable(),
});

export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) });
export const deliveryOneSchema = z.object({ delivery: deliverySchema });

export const deliveryDetailSchema = z.object({
  delivery: deliverySchema,
  event: z.record(z.string(), z.unknown()).describe("The event document the body carries"),
  attempts: z.array(z.object({
    at: z.string(),
    statusCode: z.int().nullable(),
    latencyMs: z.int(),
    responseExcerpt: z.string().describe("The first 500 characters of the answer"),
    error: z.string().nullable(),
  })),
});
