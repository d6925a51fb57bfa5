/**
 * `folio restore` and a running server (docs/OPERATIONS.md "Backup and restore"): the CLI runs as
 * the `folio` task does, with its permissions, and the server as a real `main.ts` process. They
 * meet on the store's lock file (store/store_lock.ts): a restore never replaces a store a server
 * holds, and a server never starts on a store a restore holds.
 */
import assert from "node:assert/strict";
import { tryLockStore } from "../store/store_lock.ts";
import { spawnFolio } from "./processes.ts";
import { buyerNames, exists } from "./store_files.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** `deno task folio ...` from the repository, as an operator runs it. */
async function folioTask(dir: string, ...args: string[]) {
  return await task("folio", { FOLIO_DATA_DIR: dir }, ...args);
}

async function task(name: string, env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

async function signup(base: string, name: string, email: string) {
  const res = await fetch(`${base}/api/marketplace/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, email }),
  });
  assert.equal(res.status, 201);
  return await res.json() as { buyerId: string; apiKey: string };
}

const inUse = (dir: string) =>
  `folio: The store ${dir}/folio.db is in use; stop Folio (every process on this store) before restoring`;

Deno.test("folio restore refuses the store of a running server, whose writes stay in it; once it stops the restore goes through", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-lock-" });
  try {
    const server = await spawnFolio(dir, { env: { FOLIO_SEED: "0" } });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const acme = await signup(base, "Acme AI", "ops@acme.test");
      // A backup is online: it runs beside the server.
      const backup = await folioTask(dir, "backup", `--to=${dir}/monday.backup`);
      assert.equal(backup.code, 0, backup.stderr);

      const refused = await folioTask(dir, "restore", `--from=${dir}/monday.backup`);
      assert.deepEqual([refused.code, refused.stderr, refused.stdout], [1, inUse(dir), ""]);
      const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
      assert.deepEqual(names.filter((n) => /restor/.test(n)), [], names.join(" "));

      // The server goes on answering, and what it acknowledges lands in the store it serves.
      await signup(base, "Late", "late@x.test");
      const account = await fetch(`${base}/api/marketplace/account`, {
        headers: { authorization: `Bearer ${acme.apiKey}` },
      });
      assert.equal(account.status, 200);
      assert.equal((await account.json()).name, "Acme AI");
    } finally {
      await server[Symbol.asyncDispose]();
    }
    assert.deepEqual(await buyerNames(`${dir}/folio.db`), ["Acme AI", "Late"]);

    const restore = await folioTask(dir, "restore", `--from=${dir}/monday.backup`);
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual(await buyerNames(`${dir}/folio.db`), ["Acme AI"]);
    const kept = /kept at (\S+)\.$/.exec(restore.stdout)![1];
    assert.deepEqual(await buyerNames(kept), ["Acme AI", "Late"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a server start and a CLI command are refused while a restore holds the store's lock, and start once it is released", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-lock-" });
  try {
    const store = `${dir}/folio.db`;
    // The lock exactly as restoreStore() takes it for the whole restore.
    const lock = await tryLockStore(store, "exclusive");
    assert.ok(!("held" in lock));
    try {
      const restoring =
        `folio: The store ${store} is being restored (folio restore holds ${store}.lock); try again once the restore has finished`;
      const start = await task("start", { FOLIO_DATA_DIR: dir, PORT: "0", FOLIO_SEED: "0" });
      assert.deepEqual([start.code, start.stderr], [1, restoring]);
      const migrate = await folioTask(dir, "migrate");
      assert.deepEqual([migrate.code, migrate.stderr], [1, restoring]);
      // Refused before the store was opened: nothing was created in its place.
      assert.equal(await exists(store), false);
      // A second restore meets the lock too.
      await Deno.writeTextFile(`${dir}/x.backup`, "never read");
      const again = await folioTask(dir, "restore", `--from=${dir}/x.backup`);
      assert.deepEqual([again.code, again.stderr], [1, inUse(dir)]);
    } finally {
      lock.close();
    }
    await using server = await spawnFolio(dir, { env: { FOLIO_SEED: "0" } });
    const health = await fetch(`http://127.0.0.1:${server.port}/api/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("restore and a server start refuse a lock file that cannot be opened, and say why", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-lock-" });
  try {
    const store = `${dir}/folio.db`;
    await Deno.mkdir(`${store}.lock`); // not a file: opening it to lock fails
    await Deno.writeTextFile(`${dir}/x.backup`, "never read");
    const restore = await folioTask(dir, "restore", `--from=${dir}/x.backup`);
    assert.equal(restore.code, 1);
    assert.match(
      restore.stderr,
      new RegExp(
        `^folio: Cannot restore into ${store}: its lock file ${store}\\.lock cannot be opened \\(.+\\), so whether Folio is using the store cannot be told$`,
      ),
    );
    const start = await task("start", { FOLIO_DATA_DIR: dir, PORT: "0", FOLIO_SEED: "0" });
    assert.equal(start.code, 1);
    assert.match(
      start.stderr,
      new RegExp(`^folio: Cannot open the store at file:${store}: its lock file ${store}\\.lock`),
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "folio.db.lock",
      "x.backup",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
