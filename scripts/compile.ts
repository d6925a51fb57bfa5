/**
 * `deno task compile`: one executable at dist/folio with the migrations and workers embedded (the demo
 * catalog is imported, so it is embedded anyway). `deno compile` downloads its base runtime the
 * first time; where the internet is unreachable this says so instead of a raw stack.
 */
import { SERVE_V8_FLAGS } from "../server/platform/memory.ts";

const args = [
  "compile",
  // What serving reaches, at the versions it was locked to (docs/decisions/operations.md).
  "--lock=deno.serve.lock",
  `--v8-flags=${SERVE_V8_FLAGS}`,
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi",
  "--allow-sys",
  // The binary starts itself as the search model's trainer (search/trainer.ts) and as the PDF
  // reader (server/domain/catalog/pdf_text.ts).
  "--allow-run",
  "--include",
  "store/migrations",
  // Workers are loaded by URL at run time, so the compiler cannot see them from main.ts.
  "--include",
  "search/fts_worker.ts",
  "--include",
  "store/checkpoint_worker.ts",
  "--include",
  "server/domain/catalog/extract_worker.ts",
  // The PDF reader is imported dynamically (main.ts), so that pdf.js stays out of the server.
  "--include",
  "server/domain/catalog/pdf_reader.ts",
  // x402's packages load by a computed specifier (server/domain/x402/load.ts), unseen from main.ts,
  // and so do the MCP and A2A SDKs (their surfaces' routes.ts), nodemailer and qrcode
  // (docs/decisions/operations.md, "What the start fetches").
  "--include",
  "server/domain/x402/protocol.ts",
  "--include",
  "server/surfaces/mcp/endpoint.ts",
  "--include",
  "server/surfaces/mcp/card.ts",
  "--include",
  "server/surfaces/a2a/dispatch.ts",
  "--include",
  "server/surfaces/a2a/stream.ts",
  "--include",
  "server/surfaces/a2a/card.ts",
  "--include",
  "server/domain/notifications/smtp.ts",
  "--include",
  "server/domain/operators/qr_svg.ts",
  // A remote store's client (store/db.ts).
  "--include",
  "store/remote_client.ts",
  "--output",
  "dist/folio",
  "main.ts",
];
const root = new URL("..", import.meta.url).pathname;
// The included lazy modules' packages are not in the start's lockfile, and compiling records them
// there: put it back, or every later start would fetch them (tests/serve_lock_test.ts).
const serveLock = await Deno.readTextFile(`${root}deno.serve.lock`);
const out = await new Deno.Command(Deno.execPath(), {
  args,
  cwd: root,
  stdout: "inherit",
  stderr: "piped",
}).output();
await Deno.writeTextFile(`${root}deno.serve.lock`, serveLock);
const stderr = new TextDecoder().decode(out.stderr);
if (out.code === 0) {
  console.log("Built dist/folio. Run it with the same environment variables as `task start`.");
  Deno.exit(0);
}
if (/denort|download|dns error|failed to fetch|connect/i.test(stderr)) {
  console.error(
    "compile: deno compile could not download its base runtime (denort), which it fetches from the " +
      "internet the first time. Run this task on a machine with internet access (or with DENORT_BIN " +
      "pointing at a denort 2.9.6 binary).",
  );
} else {
  console.error(stderr.trim());
}
Deno.exit(1);
