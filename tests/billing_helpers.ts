/** Buyers, paywalled articles and charged reads, shared by the metering and budget tests. */
import { json, type TestFolio } from "./helpers.ts";

/** Any service a read can go to: a test Folio, or a second process reached the same way. */
export type Requester = Pick<TestFolio, "request">;

/** Signs up buyer `n` with a unique email. */
export async function signup(folio: TestFolio, n: number | string = 0) {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: `Buyer ${n}`, email: `b${n}@buyer.test` }),
  });
  return await json<{ buyerId: string; apiKey: string }>(res);
}

/** Ids of the demo publisher's PAYWALL articles priced by the publisher's default price. */
export async function paywalled(folio: TestFolio, n = 1): Promise<string[]> {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
          AND price_micros IS NULL ORDER BY id LIMIT ?`,
    args: [n],
  });
  return rs.rows.map((r) => String(r.id));
}

/** A REST get_article with the buyer's key (and an Idempotency-Key when given). */
export async function read(folio: Requester, key: string, id: string, idem?: string) {
  const res = await folio.request(`/api/v1/articles/${id}?last_user_prompt=q`, {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${key}`, ...(idem ? { "idempotency-key": idem } : {}) },
  });
  const body = await res.json();
  return { status: res.status, body, headers: res.headers };
}
