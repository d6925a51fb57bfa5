/**
 * NLWeb `/ask` on the publisher's host, checked against the protocol's own examples
 * (docs/decisions/landing-and-crawlers.md "NLWeb ask"): the classic query string (streamed by
 * default), the v0.54 body with `prefer.response_format`, the Failure form, CORS.
 */
import assert from "node:assert/strict";
import { denyTerritory } from "./fixtures/demo.ts";
import { json, testFolio } from "./helpers.ts";
import { HOST, visit } from "./landing_helpers.ts";

type Result = {
  "@type": string;
  url: string;
  name: string;
  site: string;
  score: number;
  description: string;
  schema_object: { "@type": string; url: string; license: string };
  license: string;
  folio_license: { licensor: string; termsUrl: string };
};
type Answer = { query_id: string; _meta: Record<string, string>; results: Result[] };

function post(folio: Awaited<ReturnType<typeof testFolio>>, body: unknown): Promise<Response> {
  return folio.request("/ask", {
    method: "POST",
    host: HOST,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The `data:` messages of a server-sent event stream. */
async function events(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text.split("\n\n").filter((b) => b.startsWith("data: ")).map((b) =>
    JSON.parse(b.slice("data: ".length))
  );
}

Deno.test("NLWeb ask, classic: streamed by default as begin, result, end; JSON with streaming=false", async () => {
  await using folio = await testFolio();
  const streamed = await visit(folio, "/ask?query=solar%20power&num_results=3&query_id=q-1");
  assert.equal(streamed.status, 200);
  assert.match(streamed.headers.get("content-type")!, /^text\/event-stream/);
  const messages = await events(streamed);
  assert.deepEqual(messages.map((m) => m.message_type), [
    "begin-nlweb-response",
    "result",
    "end-nlweb-response",
  ]);
  assert.ok(messages.every((m) => m.query_id === "q-1"));
  assert.equal(messages[0].query, "solar power");
  const streamedResults = messages[1].content as Result[];

  // NLWebNet's own sample request: `mode=List&streaming=false`.
  const got = await json<Answer>(
    await visit(folio, "/ask?query=solar%20power&num_results=3&mode=List&streaming=false"),
  );
  assert.deepEqual(got.results.map((r) => r.url), streamedResults.map((r) => r.url));
  assert.ok(got.results.length > 0 && got.results.length <= 3);
  let last = 101;
  for (const r of got.results) {
    // The classic fields: url, name, site, score, description, schema_object.
    assert.equal(r["@type"], "Article");
    assert.match(r.url, /^https?:\/\//);
    assert.ok(r.site.startsWith(HOST), r.site);
    assert.ok(Number.isInteger(r.score) && r.score > 0 && r.score <= 100 && r.score < last);
    last = r.score;
    assert.equal(typeof r.description, "string");
    assert.equal(r.schema_object.url, r.url);
    // schema.org `license` is the terms URL; Folio's terms block has its own name.
    assert.equal(r.license, r.folio_license.termsUrl);
    assert.equal(r.schema_object.license, r.license);
    assert.ok(r.folio_license.licensor);
  }
  assert.equal(got.results[0].score, 100);
  const typo = await visit(folio, "/ask?query=x&streaming=maybe");
  assert.equal(typo.status, 400);
  assert.equal((await json<{ error: { code: string } }>(typo)).error.code, "INVALID_REQUEST");
});

Deno.test("NLWeb ask, v0.54: the spec's request answers conv_search by default, chatgpt_app on request", async () => {
  await using folio = await testFolio();
  // The protocol's HTTP example request (query.text, query.site, meta.version).
  const spec = { query: { text: "solar power", site: HOST }, meta: { version: "0.54" } };
  const plain = await post(folio, spec);
  assert.equal(plain.status, 200);
  assert.match(plain.headers.get("content-type")!, /^application\/json/);
  const answer = await json<Answer>(plain);
  assert.deepEqual(answer._meta, {
    response_type: "Answer",
    response_format: "conv_search",
    version: "0.54",
  });
  assert.ok(answer.results.length > 0);

  // v0.54's two counts: `num_results` retrieved, `max_results` returned; the smaller is served.
  const counted = await json<Answer>(
    await post(folio, { query: { text: "solar power", num_results: 50, max_results: 2 } }),
  );
  assert.deepEqual(counted.results.map((r) => r.url), answer.results.slice(0, 2).map((r) => r.url));

  const asked = await post(folio, { ...spec, prefer: { response_format: "conv_search" } });
  assert.deepEqual(
    (await json<Answer>(asked)).results.map((r) => r.url),
    answer.results.map((r) => r.url),
  );

  const chat = await json<{
    _meta: Record<string, string>;
    content: { type: string; text: string }[];
    structuredData: Result[];
  }>(await post(folio, { ...spec, prefer: { response_format: "chatgpt_app" } }));
  assert.equal(chat._meta.response_format, "chatgpt_app");
  assert.deepEqual(chat.structuredData.map((r) => r.url), answer.results.map((r) => r.url));
  assert.equal(chat.content.length, chat.structuredData.length);
  assert.ok(chat.content.every((t) => t.type === "text" && t.text.length > 0));
});

Deno.test("NLWeb ask refuses in the protocol's Failure form, changes nothing, and logs _nlweb:ask", async () => {
  await using folio = await testFolio();
  const failures = [
    await visit(folio, "/ask"),
    await visit(folio, "/ask?query=x&mode=generate&streaming=false"),
    await post(folio, { query: { text: "x" }, prefer: { response_format: "html" } }),
    await post(folio, "not an ask"),
    await post(folio, { query: { text: "x", max_results: "two" } }),
  ];
  for (const res of failures) {
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    const body = await json<{ _meta: unknown; error: { code: string; message: string } }>(res);
    // The spec's Failure example: `_meta.response_type` "Failure" and `error: {code, message}`.
    assert.deepEqual(body._meta, { response_type: "Failure", version: "0.54" });
    assert.equal(body.error.code, "INVALID_REQUEST");
    assert.ok(body.error.message.length > 0);
  }
  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute(
    "SELECT surface, status FROM call_log WHERE tool = '_nlweb:ask' ORDER BY id",
  );
  assert.deepEqual(rs.rows.map((r) => `${r.surface} ${r.status}`), Array(5).fill("nlweb error"));
});

Deno.test("NLWeb ask has the REST API's open CORS: answers and preflight", async () => {
  await using folio = await testFolio();
  const res = await visit(folio, "/ask?query=solar&streaming=false", {
    origin: "https://app.example",
  });
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  await res.body?.cancel();
  const pre = await folio.request("/ask", {
    method: "OPTIONS",
    host: HOST,
    headers: {
      origin: "https://app.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods")!, /POST/);
  assert.match(pre.headers.get("access-control-allow-headers")!, /Content-Type/i);
});

Deno.test("NLWeb ask, v0.54: prefer.streaming, or Accept: text/event-stream, streams the answer as events", async () => {
  await using folio = await testFolio();
  const ask = (prefer: Record<string, unknown>, accept?: string) =>
    folio.request("/ask", {
      method: "POST",
      host: HOST,
      headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
      body: JSON.stringify({ query: { text: "solar energy" }, prefer }),
    });
  const whole = await json<Answer>(await ask({ streaming: false }, "text/event-stream"));
  assert.equal(whole._meta.response_type, "Answer", "streaming: false wins over Accept");
  assert.ok(whole.results.length > 0);

  for (const res of [await ask({ streaming: true }), await ask({}, "text/event-stream")]) {
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/event-stream/);
    const [head, content, end] = await events(res);
    // Together the events are the whole answer; the first and last carry the meta block.
    assert.deepEqual(head._meta, {
      response_type: "Answer",
      response_format: "conv_search",
      version: "0.54",
    });
    assert.deepEqual(
      (content.results as Result[]).map((r) => r.url),
      whole.results.map((r) => r.url),
    );
    assert.equal((end._meta as Record<string, string>)["nlweb/streaming_status"], "finished");
    assert.equal(end.query_id, head.query_id);
  }
  const app = await events(await ask({ streaming: true, response_format: "chatgpt_app" }));
  assert.ok(Array.isArray(app[1].structuredData) && Array.isArray(app[1].content));

  const bad = await ask({ streaming: "yes" });
  assert.equal(bad.status, 400);
  const body = await json<{ error: { code: string; message: string } }>(bad);
  assert.deepEqual(body.error, {
    code: "INVALID_REQUEST",
    message: "prefer.streaming: true or false",
  });
});

Deno.test("NLWeb ask answers the envelope's refusals and its own failures in the Failure form too", async () => {
  await using folio = await testFolio();
  const failure = async (res: Response, status: number, code: string) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    const body = await json<{ _meta: unknown; error: { code: string; message: string } }>(res);
    assert.deepEqual(body._meta, { response_type: "Failure", version: "0.54" });
    assert.equal(body.error.code, code);
    assert.ok(body.error.message.length > 0);
    return body.error.message;
  };
  // The reach gate: a credential that is not a live buyer key.
  const forged = await visit(folio, "/ask?query=solar&streaming=false", {
    authorization: "Bearer mk_notarealkey",
  });
  assert.match(forged.headers.get("www-authenticate")!, /invalid_token/);
  await failure(forged, 401, "UNAUTHORIZED");
  // The body limit, before the handler reads a byte of it.
  const big = await post(folio, { query: { text: "x".repeat(70_000) } });
  assert.match(await failure(big, 413, "REQUEST_TOO_LARGE"), /65536 bytes/);
  // A failure on our side: the request id, never the internals.
  const search = folio.deps.search.search;
  folio.deps.search.search = () => Promise.reject(new Error("index file is corrupt"));
  try {
    const broken = await visit(folio, "/ask?query=solar&streaming=false");
    const message = await failure(broken, 500, "INTERNAL_ERROR");
    assert.doesNotMatch(message, /corrupt/);
    assert.match(message, /request/);
  } finally {
    folio.deps.search.search = search;
  }
});

Deno.test("NLWeb ask signals territory_blocked when a territory rule withholds every article", async () => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  await denyTerritory(folio, "FR");
  const fr = { "cf-ipcountry": "FR" };
  for (
    const res of [
      await visit(folio, "/ask?query=climate&streaming=false", fr),
      await folio.request("/ask", {
        method: "POST",
        host: HOST,
        headers: { "content-type": "application/json", ...fr },
        body: JSON.stringify({ query: { text: "climate" } }),
      }),
      await visit(folio, "/ask?query=climate", fr),
    ]
  ) {
    assert.equal(res.status, 451);
    const body = await json<{ _meta: { response_type: string }; error: { code: string } }>(res);
    assert.equal(body._meta.response_type, "Failure");
    assert.equal(body.error.code, "TERRITORY_BLOCKED");
  }
  // Elsewhere the same query finds articles.
  const de = await json<{ results: unknown[] }>(
    await visit(folio, "/ask?query=climate&streaming=false", { "cf-ipcountry": "DE" }),
  );
  assert.ok(de.results.length > 0);
});
