/** Buyers with charged items, and the dispute calls, shared by the dispute tests. */
import assert from "node:assert/strict";
import { json, type TestFolio } from "./helpers.ts";
import { paywalled, read, type Requester, signup } from "./billing_helpers.ts";

// deno-lint-ignore no-explicit-any
export type Body = any;

/** A buyer with `n` metered reads of the demo publisher's paywalled articles; their item ids. */
export async function buyerWithItems(folio: TestFolio, tag: string, n = 3) {
  const { buyerId, apiKey } = await signup(folio, tag);
  for (const id of await paywalled(folio, n)) {
    assert.equal((await read(folio, apiKey, id)).status, 200);
  }
  const items = await call(folio, apiKey, "GET", "/api/marketplace/items");
  assert.equal(items.status, 200);
  return {
    buyerId,
    apiKey,
    items: (items.body.items as Body[]).reverse(),
  };
}

/** A JSON call with a bearer key; answers status and body. */
export async function call(
  folio: Requester,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const res = await folio.request(path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await json(res) };
}

/** Opens a dispute of `itemIds`; asserts 201 and answers the dispute. */
export async function dispute(folio: Requester, key: string, itemIds: string[], reason = "Wrong") {
  const r = await call(folio, key, "POST", "/api/marketplace/disputes", { itemIds, reason });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.dispute;
}

/** The publisher's decision on a dispute. */
export function decide(folio: Requester, publisherKey: string, id: string, decision: unknown) {
  return call(folio, publisherKey, "POST", `/api/publisher/disputes/${id}/decision`, decision);
}
