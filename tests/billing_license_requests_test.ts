/** License requests: validation, approval into licenses (request and enterprise), denial. */
import assert from "node:assert/strict";
import {
  createLicenseRequest,
  denyLicenseRequest,
  listRequests,
} from "../server/domain/billing/license_requests.ts";
import { grantRequest } from "./offer_helpers.ts";
import { AppError } from "../server/platform/errors.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { bindClient } from "../store/buyer_clients.ts";
import { heldUseCases } from "../store/licenses.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { testFolio } from "./helpers.ts";

async function rejects400(p: Promise<unknown>, field: string) {
  await assert.rejects(
    p,
    (e) => e instanceof AppError && e.status === 400 && e.message.startsWith(field),
  );
}

Deno.test("createLicenseRequest() validates use case, message and contact, naming the field", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const base = {
    publisherId: "pub_demo",
    identity: "sess:x",
    buyerId: null,
    useCase: "fine_tuning",
    message: "Training a model",
    contact: null,
  };
  await rejects400(createLicenseRequest(db, { ...base, useCase: "scraping" }, { now }), "use_case");
  await rejects400(createLicenseRequest(db, { ...base, message: "" }, { now }), "message");
  await rejects400(
    createLicenseRequest(db, { ...base, message: "x".repeat(2001) }, { now }),
    "message",
  );
  await rejects400(
    createLicenseRequest(db, { ...base, contact: "c".repeat(201) }, { now }),
    "contact",
  );
  const publisher = (await getPublisher(db, "pub_demo"))!;
  await updatePublisher(db, { ...publisher, enterpriseTerms: null }, { now });
  await rejects400(createLicenseRequest(db, { ...base, enterprise: true }, { now }), "enterprise");
  await assert.rejects(
    createLicenseRequest(db, { ...base, publisherId: "pub_nope" }, { now }),
    (e) => e instanceof AppError && e.status === 404,
  );
  assert.equal((await listRequests(db, "pub_demo")).length, 0, "bad input changes nothing");
  const ok = await createLicenseRequest(db, { ...base, message: "x".repeat(2000) }, { now });
  assert.equal(ok.state, "pending");
  const again = await createLicenseRequest(db, base, { now });
  assert.equal(again.requestId, ok.requestId, "a repeated pending request is the same request");
});

Deno.test("approving a buyer's fine_tuning request grants fine_tuning for that publisher only, once", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const { buyerId } = await createBuyer(db, { name: "Acme AI", email: "ml@acme.test" }, { now });
  const { requestId } = await createLicenseRequest(db, {
    publisherId: "pub_demo",
    identity: `buyer:${buyerId}`,
    buyerId,
    useCase: "fine_tuning",
    message: "We would like to fine-tune on your archive",
    contact: "ml@acme.test",
  }, { now });
  const publisher = (await getPublisher(db, "pub_demo"))!;
  const { license } = await grantRequest(db, publisher, { requestId, now });
  assert.equal(license.kind, "request");
  assert.deepEqual(await heldUseCases(db, buyerId, "pub_demo", { now }), ["fine_tuning"]);
  await assert.rejects(
    grantRequest(db, publisher, { requestId, now }),
    (e) => e instanceof AppError && e.status === 409 && e.code === "already_decided",
  );
  await assert.rejects(
    denyLicenseRequest(db, "pub_demo", { requestId, now }),
    (e) => e instanceof AppError && e.status === 409,
  );
  const rs = await db.execute("SELECT COUNT(*) AS n FROM licenses");
  assert.equal(Number(rs.rows[0].n), 1);
});

Deno.test("an enterprise approval creates an enterprise license billed monthly on the publisher's terms", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const publisher = {
    ...(await getPublisher(db, "pub_demo"))!,
    enterpriseTerms: {
      useCases: ["display" as const, "rag" as const],
      monthlyPriceMicros: 2_500_000_000,
      conditions: "Attribution required",
    },
  };
  await updatePublisher(db, publisher, { now });
  const { buyerId } = await createBuyer(db, { name: "Big Co", email: "legal@big.test" }, { now });
  const { requestId } = await createLicenseRequest(db, {
    publisherId: "pub_demo",
    identity: `buyer:${buyerId}`,
    buyerId,
    useCase: "fine_tuning",
    message: "Enterprise deal please",
    contact: null,
    enterprise: true,
  }, { now });
  const { license } = await grantRequest(db, publisher, { requestId, now });
  assert.equal(license.kind, "enterprise");
  assert.deepEqual([...license.useCases].sort(), ["display", "fine_tuning", "rag"]);
  const rs = await db.execute({
    sql: "SELECT kind, price_micros, month FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.deepEqual(rs.rows.map((r) => [r.kind, Number(r.price_micros), r.month]), [
    // Accepted on Nov 15 at 12:00 UTC: 15.5 of November's 30 days, prorated to the second.
    ["subscription", 1_291_666_667, "2026-11"],
  ]);
});

Deno.test("a request from an unbound OAuth client is approved only once a buyer binds that client", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  await db.execute({
    sql: "INSERT INTO oauth_clients (id, kind, created_at) VALUES ('cli_1', 'dynamic', ?)",
    args: [now.getTime()],
  });
  const { requestId } = await createLicenseRequest(db, {
    publisherId: "pub_demo",
    identity: "oauth:cli_1",
    buyerId: null,
    useCase: "rag",
    message: "RAG for our assistant",
    contact: null,
  }, { now });
  const publisher = (await getPublisher(db, "pub_demo"))!;
  await assert.rejects(
    grantRequest(db, publisher, { requestId, now }),
    (e) => e instanceof AppError && e.status === 409 && e.code === "buyer_required",
  );
  const { buyerId } = await createBuyer(db, { name: "Late", email: "late@b.test" }, { now });
  assert.equal(await bindClient(db, buyerId, "cli_1"), "bound");
  const { request } = await grantRequest(db, publisher, { requestId, now });
  assert.equal(request.buyerId, buyerId);
  assert.deepEqual(await heldUseCases(db, buyerId, "pub_demo", { now }), ["rag"]);
});

Deno.test("denying a request creates no license", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const { requestId } = await createLicenseRequest(db, {
    publisherId: "pub_demo",
    identity: "sess:abc",
    buyerId: null,
    useCase: "display",
    message: "please",
    contact: null,
  }, { now });
  const denied = await denyLicenseRequest(db, "pub_demo", { requestId, now });
  assert.equal(denied.state, "denied");
  const rs = await db.execute("SELECT COUNT(*) AS n FROM licenses");
  assert.equal(Number(rs.rows[0].n), 0);
  await assert.rejects(
    denyLicenseRequest(db, "pub_other", { requestId, now }),
    (e) => e instanceof AppError && e.status === 404,
    "another publisher cannot see the request",
  );
});
