import assert from "node:assert/strict";
import { createOpenAiEmbedder, EmbedderError, type EmbedFetch } from "./embedder.ts";

const plainFetch: EmbedFetch = async (url, init) => {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text: () => text };
};

Deno.test("createOpenAiEmbedder() posts to /v1/embeddings and returns unit vectors", async () => {
  const seen: { path: string; auth: string | null; body: { model: string; input: string[] } }[] =
    [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const body = await req.json();
      seen.push({ path: new URL(req.url).pathname, auth: req.headers.get("authorization"), body });
      // Out of order on purpose: clients must place vectors by index.
      const data = body.input.map((t: string, i: number) => ({
        index: i,
        embedding: [t.length, 0, 0, 0],
      }))
        .reverse();
      return Response.json({ data, model: body.model });
    },
  );
  const embedder = createOpenAiEmbedder({
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    apiKey: "sk-test",
    model: "nomic-embed-text",
    fetch: plainFetch,
  });
  const [a, b] = await embedder.embed(["hello", "hi"]);
  assert.deepEqual([...a], [1, 0, 0, 0]);
  assert.deepEqual([...b], [1, 0, 0, 0]);
  assert.equal(embedder.dims, 4);
  assert.equal(embedder.id, "openai:nomic-embed-text");
  assert.deepEqual(seen, [{
    path: "/v1/embeddings",
    auth: "Bearer sk-test",
    body: { model: "nomic-embed-text", input: ["hello", "hi"] },
  }]);
});

Deno.test("createOpenAiEmbedder() reports a provider error with its status", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("overloaded", { status: 503 }),
  );
  const embedder = createOpenAiEmbedder({
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    model: "m",
    dims: 8,
    fetch: plainFetch,
  });
  await assert.rejects(() => embedder.embed(["x"]), (err) => {
    assert.ok(err instanceof EmbedderError);
    assert.equal(err.status, 503);
    return true;
  });
});
