import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { AppError, errorBody } from "./errors.ts";
import { jsonBodies, jsonTooLarge } from "./json_body.ts";

const json = jsonBodies(jsonTooLarge);
const schema = z.strictObject({
  name: z.string().optional(),
  tags: z.array(z.string()).optional(),
});

function app() {
  const a = new Hono();
  a.post("/strict", json(schema), (c) => c.json(c.req.valid("json")));
  a.post("/optional", json(schema, { empty: true }), (c) => c.json(c.req.valid("json")));
  a.onError((err, c) => {
    if (!(err instanceof AppError)) throw err;
    return c.json(errorBody(err.code, err.message, err.param), err.status);
  });
  return a;
}

async function post(path: string, body: string, type?: string) {
  const res = await app().request(path, {
    method: "POST",
    headers: type ? { "content-type": type } : {},
    // An empty string would be sent as text/plain: no body at all is what "no Content-Type" is.
    body: body === "" && !type ? null : body,
  });
  return { status: res.status, body: await res.json() };
}

const UNSUPPORTED = {
  status: 415,
  body: errorBody("unsupported_media_type", "Content-Type: must be application/json"),
};

Deno.test("one media-type policy: JSON or +json, else 415 with the pinned sentence", async () => {
  assert.deepEqual(await post("/strict", '{"name":"a"}', "application/json; charset=utf-8"), {
    status: 200,
    body: { name: "a" },
  });
  assert.deepEqual(await post("/strict", '{"name":"a"}', "application/merge-patch+json"), {
    status: 200,
    body: { name: "a" },
  });
  assert.deepEqual(await post("/strict", '{"name":"a"}', "text/plain"), UNSUPPORTED);
  assert.deepEqual(await post("/strict", '{"name":"a"}'), UNSUPPORTED);
});

Deno.test("an empty body is {} only where the route allows it, and never as text/plain", async () => {
  assert.deepEqual(await post("/optional", ""), { status: 200, body: {} });
  assert.deepEqual(await post("/optional", "", "application/json"), { status: 200, body: {} });
  assert.deepEqual(await post("/optional", "", "text/plain"), UNSUPPORTED);
  assert.deepEqual(await post("/strict", ""), UNSUPPORTED);
  assert.deepEqual(await post("/strict", "", "application/json"), {
    status: 400,
    body: errorBody("invalid_request", "body: is not valid JSON"),
  });
});

Deno.test("bad bodies keep their sentences; a bad field is named in param", async () => {
  assert.deepEqual(await post("/strict", "[1]", "application/json"), {
    status: 400,
    body: errorBody("invalid_request", "body: must be a JSON object"),
  });
  assert.deepEqual(await post("/strict", '{"tags":["a",1]}', "application/json"), {
    status: 400,
    body: errorBody("invalid_request", "tags[1]: expected a string", "tags[1]"),
  });
  assert.deepEqual(await post("/strict", '{"nope":1}', "application/json"), {
    status: 400,
    body: errorBody("invalid_request", "nope: is not a known field", "nope"),
  });
  assert.deepEqual(
    await post("/strict", JSON.stringify({ name: "x".repeat(70_000) }), "application/json"),
    {
      status: 413,
      body: errorBody("payload_too_large", "body: must be at most 65536 bytes of JSON"),
    },
  );
});
