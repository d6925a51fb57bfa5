/** The entry point as an operator meets it: a real `deno run main.ts` process. */
import assert from "node:assert/strict";
import { openStore } from "../store/db.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PERMS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi",
  "--allow-sys",
];

function folioProcess(env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", `--lock=${new URL("../deno.lock", import.meta.url).pathname}`, ...PERMS, MAIN],
    env: { NO_COLOR: "1", FOLIO_HOST: "127.0.0.1", ...env },
    stdout: "piped",
    stderr: "piped",
  });
}

async function runToExit(env: Record<string, string>) {
  const out = await folioProcess(env).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("main.ts refuses bad config with one line and a non-zero exit", async () => {
  const r = await runToExit({ PORT: "eighty" });
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'folio: PORT must be a whole number from 0 to 65535, got "eighty"');
});

Deno.test("main.ts refuses a port already in use with one line", async () => {
  const dir = await Deno.makeTempDir();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const r = await runToExit({ PORT: String(port), FOLIO_DATA_DIR: dir });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      `folio: Port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT (0 picks a free port)`,
    );
  } finally {
    taken.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts refuses a newer-schema store with one line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const s = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    await s.db.execute("INSERT INTO schema_migrations VALUES (9999, 'future', 0)");
    s.close();
    const r = await runToExit({ PORT: "0", FOLIO_DATA_DIR: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr.trim(), /^folio: Refusing to use the store: its schema is version 9999/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts refuses a corrupt store with one line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/folio.db`, "garbage ".repeat(1000));
    const r = await runToExit({ PORT: "0", FOLIO_DATA_DIR: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr.trim(), /^folio: Cannot open the store at .*not a database/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts prints the URLs, serves, and shuts down cleanly on SIGTERM", async () => {
  const dir = await Deno.makeTempDir();
  const child = folioProcess({ PORT: "0", FOLIO_DATA_DIR: dir }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let banner = "";
    while (!banner.includes("console sign-in")) {
      const { value, done } = await reader.read();
      if (done) break;
      banner += value;
    }
    const base = /serving on (http:\/\/localhost:\d+)/.exec(banner)?.[1];
    assert.ok(base, banner);
    assert.match(banner, /Catalog: +http:\/\/localhost:\d+\/api\/marketplace\/catalog/);
    assert.match(banner, /Demo REST: +http:\/\/demo\.localhost:\d+\/api\/v1\/articles\/search/);
    assert.match(banner, /Demo site: +http:\/\/demo\.localhost:\d+\/ /);
    assert.match(banner, /publisher API key \(shown once\): pk_[0-9A-Za-z]{38}/);
    const signIn = /console sign-in \(shown once\): (\S+) \/ (\S+)/.exec(banner);
    assert.ok(signIn, banner);
    assert.match(banner, /Publishers: +http:\/\/localhost:\d+\/publisher/);
    assert.match(banner, /Buyers: +http:\/\/localhost:\d+\/buyer /);
    const port = new URL(base).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    // The printed console sign-in works (the JSON login the console's form uses).
    const login = await fetch(`http://127.0.0.1:${port}/api/publishers/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: signIn[1], password: signIn[2] }),
    });
    assert.equal(login.status, 200);
    await login.body?.cancel();
    child.kill("SIGTERM");
    const rest = await reader.read();
    if (!rest.done) banner += rest.value;
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    const status = await child.status;
    assert.equal(status.code, 0);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.stderr.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
