/**
 * Webhook endpoint operations shared by the management API (publishers) and the marketplace
 * (buyers): add, list, delete, rotate the secret, send a test event, list deliveries, replay one.
 * The secret is answered once, when made; listings show a hint (docs/decisions/webhooks.md).
 */
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  getEndpoint,
  insertEndpoint,
  listEndpoints,
  type Owner,
  replaceSecret,
} from "../../../store/webhooks.ts";
import {
  type DeliveryRow,
  getDelivery,
  insertDelivery,
  listDeliveries,
} from "../../../store/webhook_deliveries.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { hint, newSecret } from "../../platform/secrets.ts";
import { isForbiddenAddress, isLoopbackAddress, parseIp } from "../catalog/ip_ranges.ts";
import { eventsFor, notify, TEST_EVENT } from "./events.ts";

/** Stripe's limit of endpoints per account. */
export const MAX_ENDPOINTS = 16;
const MAX_URL = 2048;

/** What the operations need: the store, the time, and whether loopback targets are allowed. */
export interface HookDeps {
  db: Client;
  now: Date;
  /** FOLIO_FETCH_ALLOW_LOOPBACK: tests and local development may target 127.0.0.1 over http. */
  allowLoopback: boolean;
}

/** An endpoint as answered: never its secret. */
export function presentEndpoint(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    secretHint: hint(e.secret),
    createdAt: new Date(e.createdAt).toISOString(),
    secretRotatedAt: e.rotatedAt === null ? null : new Date(e.rotatedAt).toISOString(),
  };
}

/** A delivery as answered. */
export function presentDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.state === "pending" && d.nextAttemptAt !== null
      ? new Date(d.nextAttemptAt).toISOString()
      : null,
    replayOf: d.replayOf,
    createdAt: new Date(d.createdAt).toISOString(),
    lastStatus: d.lastStatus,
    lastError: d.lastError,
  };
}

/**
 * Refuses what can never be delivered, before it is stored: not http(s), credentials in the URL,
 * plain http or an IP literal in a private range (loopback too unless allowed). A host name is
 * checked again by the guarded fetcher at every delivery, after DNS.
 */
export function checkUrl(raw: unknown, allowLoopback: boolean): string {
  if (typeof raw !== "string" || raw.length > MAX_URL) {
    throw invalid("url", `must be a URL of at most ${MAX_URL} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid("url", "must be a full URL such as https://example.com/folio/webhooks");
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const loopback = isLoopbackAddress(host) || host === "localhost" || host.endsWith(".localhost");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowLoopback)) {
    throw invalid("url", "must start with https://");
  }
  if (url.username || url.password) throw invalid("url", "must not carry a user name or password");
  if (loopback && !allowLoopback) {
    throw invalid("url", "must be a public address: this server refuses to call itself");
  }
  if (parseIp(host) && isForbiddenAddress(host, { allowLoopback })) {
    throw invalid("url", `must be a public address: ${host} is a private or reserved one`);
  }
  return url.href;
}

function checkEvents(raw: unknown, owner: Owner): string[] {
  const allowed = eventsFor(owner.kind);
  const list = Array.isArray(raw) ? raw : [];
  const bad = list.find((e) => e !== "*" && !allowed.includes(e));
  if (!list.length || bad !== undefined) {
    throw invalid("events", `choose at least one of ${allowed.join(", ")} (or * for all)`);
  }
  return [...new Set(list as string[])];
}

/** Adds an endpoint; the answer carries its secret, which is never shown again. */
export async function addEndpoint(
  deps: HookDeps,
  owner: Owner,
  input: { url: string; events: string[]; description?: string },
) {
  const url = checkUrl(input.url, deps.allowLoopback);
  const events = checkEvents(input.events, owner);
  if (await countEndpoints(deps.db, owner) >= MAX_ENDPOINTS) {
    throw new AppError(409, "too_many_endpoints", `At most ${MAX_ENDPOINTS} endpoints`);
  }
  const secret = newSecret("whsec");
  const id = newId("we");
  await insertEndpoint(deps.db, owner, {
    id,
    url,
    events,
    description: input.description?.trim() ?? "",
    secret,
    now: deps.now,
  });
  const made = await getEndpoint(deps.db, owner, id);
  return { endpoint: presentEndpoint(made!), secret };
}

/** The owner's endpoints. */
export async function endpointList(db: Client, owner: Owner) {
  return { endpoints: (await listEndpoints(db, owner)).map(presentEndpoint) };
}

/** One endpoint, or 404. */
export async function endpointOf(db: Client, owner: Owner, id: string) {
  const e = await getEndpoint(db, owner, id);
  if (!e) throw notFound("Webhook endpoint");
  return e;
}

/** Deletes an endpoint and its delivery log. */
export async function removeEndpoint(db: Client, owner: Owner, id: string): Promise<void> {
  if (!await deleteEndpoint(db, owner, id)) throw notFound("Webhook endpoint");
}

/** A new secret for the endpoint; the old one stops signing at once. Answered once. */
export async function rotateEndpointSecret(deps: HookDeps, owner: Owner, id: string) {
  const secret = newSecret("whsec");
  if (!await replaceSecret(deps.db, owner, id, { secret, now: deps.now })) {
    throw notFound("Webhook endpoint");
  }
  return { endpoint: presentEndpoint((await getEndpoint(deps.db, owner, id))!), secret };
}

/** Queues a `webhook.test` event to this endpoint only; the answer names its delivery. */
export async function sendTestEvent(deps: HookDeps, owner: Owner, id: string) {
  await endpointOf(deps.db, owner, id);
  await notify(deps.db, owner, TEST_EVENT, {
    message: "A test event sent from Folio. Verify its Folio-Signature with your secret.",
  }, { now: deps.now, only: id });
  const [delivery] = await listDeliveries(deps.db, owner, id, 1);
  return { delivery: presentDelivery(delivery) };
}

/** An endpoint's deliveries, newest first. */
export async function deliveryList(db: Client, owner: Owner, id: string, limit = 50) {
  await endpointOf(db, owner, id);
  return { deliveries: (await listDeliveries(db, owner, id, limit)).map(presentDelivery) };
}

/** One delivery with its body and every attempt. */
export async function deliveryDetail(db: Client, owner: Owner, id: string) {
  const d = await getDelivery(db, owner, id);
  if (!d) throw notFound("Webhook delivery");
  return {
    delivery: presentDelivery(d),
    event: JSON.parse(d.payload) as Record<string, unknown>,
    attempts: d.attemptLog.map((a) => ({
      at: new Date(a.at).toISOString(),
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      responseExcerpt: a.excerpt,
      error: a.error,
    })),
  };
}

/** Queues the same event to the same endpoint again, signed afresh when it is sent. */
export async function replayDelivery(deps: HookDeps, owner: Owner, id: string) {
  const d = await getDelivery(deps.db, owner, id);
  if (!d) throw notFound("Webhook delivery");
  const replay = newId("whd");
  await insertDelivery(deps.db, {
    id: replay,
    endpointId: d.endpointId,
    eventId: d.eventId,
    replayOf: d.id,
    now: deps.now,
  });
  return { delivery: presentDelivery((await getDelivery(deps.db, owner, replay))!) };
}
