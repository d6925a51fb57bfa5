import assert from "node:assert/strict";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { openCors } from "./cors.ts";

const options = {
  allowMethods: ["GET", "POST", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type"],
  exposeHeaders: ["X-Request-Id"],
  maxAge: 600,
};

function app(middleware: ReturnType<typeof openCors>) {
  const a = new Hono();
  a.use("*", middleware);
  a.get("/json", (c) => c.json({ ok: true }));
  a.get("/raw", () => new Response("raw", { headers: { "x-own": "1" } }));
  a.get("/fails", () => {
    throw new Error("boom");
  });
  a.onError((_err, c) => c.json({ error: "internal" }, 500));
  return a;
}

const corsOf = (res: Response) =>
  [...res.headers].filter(([k]) => k.startsWith("access-control") || k === "vary").sort();

Deno.test("openCors() answers every request and preflight exactly as Hono's cors() does", async () => {
  const ours = app(openCors(options));
  const hono = app(cors({ origin: "*", ...options }));
  const requests: [string, RequestInit][] = [
    ["/json", { headers: { origin: "https://agent.example" } }],
    ["/raw", {}],
    ["/fails", {}],
    ["/json", {
      method: "OPTIONS",
      headers: {
        origin: "https://agent.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    }],
  ];
  for (const [path, init] of requests) {
    const a = await ours.request(path, init);
    const b = await hono.request(path, init);
    assert.equal(a.status, b.status, path);
    assert.deepEqual(corsOf(a), corsOf(b), `${init.method ?? "GET"} ${path}`);
    assert.equal(await a.text(), await b.text());
    if (path !== "/fails" && !("method" in init)) {
      assert.equal(a.headers.get("access-control-allow-origin"), "*");
    }
  }
  // A handler's own Response keeps its headers and gains the CORS ones.
  const raw = await ours.request("/raw");
  assert.equal(raw.headers.get("x-own"), "1");
  assert.equal(raw.headers.get("access-control-expose-headers"), "X-Request-Id");
  await raw.body?.cancel();
});
