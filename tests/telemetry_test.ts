/**
 * Operations as an operator switches them on (docs/OPERATIONS.md "Telemetry"): a real `deno run
 * main.ts` with OTEL_DENO=true exports Folio's spans and metrics to an OTLP collector, and
 * FOLIO_LOG_FORMAT=json writes one JSON object per log line.
 */
import assert from "node:assert/strict";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A stand-in OTLP/HTTP collector that keeps every JSON document posted to it. */
function collector() {
  const received: { path: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({ path: new URL(req.url).pathname, body: await req.text() });
    return Response.json({});
  });
  return { received, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("with OTEL_DENO on, requests export Folio's spans and metrics over OTLP; logs can be JSON lines", async () => {
  const otlp = collector();
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      MAIN,
      "--log-format=json",
      "--log-level=debug",
    ],
    env: {
      NO_COLOR: "1",
      PORT: "0",
      FOLIO_HOST: "127.0.0.1",
      FOLIO_DATA_DIR: dir,
      OTEL_DENO: "true",
      OTEL_SERVICE_NAME: "folio-test",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let banner = "";
    while (!banner.includes("publisher API key")) {
      const { value, done } = await reader.read();
      if (done) break;
      banner += value;
    }
    const port = Number(/serving on http:\/\/localhost:(\d+)/.exec(banner)?.[1]);
    assert.ok(port, banner);
    const client = Deno.createHttpClient({
      proxy: { transport: "tcp", hostname: "127.0.0.1", port },
    });
    const demo = `http://demo.localhost:${port}/api/v1`;
    const found = await (await fetch(`${demo}/articles/search?q=energy`, { client })).json();
    const id = found.results[0].id;
    const read = await fetch(`${demo}/articles/${id}?last_user_prompt=energy`, { client });
    await read.body?.cancel();
    client.close();
    child.kill("SIGTERM");
    while (!(await reader.read()).done) { /* drain until exit */ }
    assert.equal((await child.status).code, 0);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await otlp.close();
    await Deno.remove(dir, { recursive: true });
  }

  const traces = otlp.received.filter((r) => r.path === "/v1/traces").map((r) => r.body).join();
  const metrics = otlp.received.filter((r) => r.path === "/v1/metrics").map((r) => r.body).join();
  for (const span of ["folio.search", "folio.read"]) {
    assert.match(traces, new RegExp(`"name":\\s*"${span}"`), `span ${span} exported`);
  }
  assert.match(traces, /"stringValue":\s*"folio-test"/, "service name from OTEL_SERVICE_NAME");
  for (const metric of ["folio.calls", "folio.decisions", "folio.search.duration"]) {
    assert.match(metrics, new RegExp(`"name":\\s*"${metric}"`), `metric ${metric} exported`);
  }
  // Each log line is one JSON object with time, level and msg.
  const lines = (await stderr).split("\n").filter((l) => l.startsWith("{"));
  assert.ok(lines.length > 0, "some log lines");
  for (const line of lines) {
    const entry = JSON.parse(line);
    assert.equal(typeof entry.time, "string");
    assert.ok(["debug", "info", "warn", "error"].includes(entry.level));
    assert.equal(typeof entry.msg, "string");
  }
});
