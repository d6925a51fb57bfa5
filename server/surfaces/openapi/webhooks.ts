/**
 * The webhook operations (issue 34, docs/decisions/webhooks.md), documented once and served twice:
 * under /api/publisher for a publisher's endpoints and /api/marketplace for a buyer's.
 */
import * as w from "../../domain/webhooks/schemas.ts";
import { BUYER_EVENTS, EVENT_WORDS, PUBLISHER_EVENTS } from "../../domain/webhooks/events.ts";
import { type Operation, pathParam, type Paths } from "./kit.ts";

const SIGNING = "Each delivery is a POST of the event document (JSON: id, type, created, owner, " +
  'data) with `Folio-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed ' +
  "by the endpoint secret>` (Stripe's scheme): recompute it over the raw body and refuse a `t` " +
  "older than 5 minutes. A 2xx answer within 10 seconds is success; anything else is retried " +
  "after 1, 5, 30, 120, 300, 600, 1440 and 1440 minutes (±10%), then the delivery fails.";

/** The paths, relative to the API's prefix; `owner` names whose endpoints they are. */
export function webhookPaths(owner: "publisher" | "buyer"): Paths {
  const authed = (o: Omit<Operation, "auth">): Operation => ({ ...o, auth: true });
  const types = owner === "publisher" ? PUBLISHER_EVENTS : BUYER_EVENTS;
  const list = types.map((t) => `\`${t}\` (${EVENT_WORDS[t]})`).join("; ");
  const id = pathParam("id");
  return {
    "/webhook-endpoints": {
      get: authed({
        summary: "Webhook endpoints",
        description: "Oldest first; the secret is never shown again, only its hint.",
        ok: [200, w.endpointListSchema],
      }),
      post: authed({
        summary: "Add a webhook endpoint",
        description: `Events: ${list}. ${SIGNING} The URL must be https and public: private, ` +
          "loopback and reserved addresses are refused here and again after DNS at every " +
          "delivery. At most 16 endpoints (409 too_many_endpoints). The answer carries the " +
          "signing secret (whsec_…) once.",
        body: w.endpointInputSchema,
        example: { url: "https://example.com/folio/webhooks", events: [types[0]] },
        ok: [201, w.endpointSecretSchema, "Created; store the secret now"],
        errors: [400, 409, 413, 415],
      }),
    },
    "/webhook-endpoints/{id}": {
      get: authed({
        summary: "One webhook endpoint",
        params: [id],
        ok: [200, w.endpointOneSchema],
        errors: [404],
      }),
      delete: authed({
        summary: "Delete a webhook endpoint and its delivery log",
        params: [id],
        ok: [204, null, "Deleted"],
        errors: [404],
      }),
    },
    "/webhook-endpoints/{id}/rotate-secret": {
      post: authed({
        summary: "Roll the endpoint's signing secret",
        description: "Answers the new secret once. The old one stops signing at once: " +
          "deliveries from now on, retries included, carry the new signature.",
        params: [id],
        ok: [200, w.endpointSecretSchema],
        errors: [404],
      }),
    },
    "/webhook-endpoints/{id}/test": {
      post: authed({
        summary: "Send a test event to the endpoint",
        description: "Queues a `webhook.test` event to this endpoint alone, whatever it " +
          "subscribes to; it is sent within seconds and logged like any delivery. Test events " +
          "and replays: 120 an hour per owner (429).",
        params: [id],
        ok: [202, w.deliveryOneSchema, "Queued"],
        errors: [404, 429],
      }),
    },
    "/webhook-endpoints/{id}/deliveries": {
      get: authed({
        summary: "The endpoint's deliveries, newest first (the last 50)",
        description: "Each with its state (pending, succeeded, failed), attempts so far, " +
          "the next attempt, and the last answer's status or error.",
        params: [id],
        ok: [200, w.deliveryListSchema],
        errors: [404],
      }),
    },
    "/webhook-deliveries/{id}": {
      get: authed({
        summary: "One delivery: the event it carries and every attempt",
        description: "Each attempt: when, the receiver's status, latency, and the first 500 " +
          "characters of its answer, or why it could not be sent.",
        params: [id],
        ok: [200, w.deliveryDetailSchema],
        errors: [404],
      }),
    },
    "/webhook-deliveries/{id}/replay": {
      post: authed({
        summary: "Send a delivery's event again",
        description: "Queues a new delivery of the same event (same id, so receivers can " +
          "deduplicate) to the same endpoint, signed afresh when sent. Counts against the 120 " +
          "test events and replays an hour.",
        params: [id],
        ok: [202, w.deliveryOneSchema, "Queued"],
        errors: [404, 429],
      }),
    },
  };
}
