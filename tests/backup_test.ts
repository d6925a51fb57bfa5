/**
 * Backup and restore (docs/OPERATIONS.md "Backup and restore"): a backup taken while another
 * process writes is one consistent point of the store, a restore puts exactly that back, and every
 * refusal leaves the store as it was.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { buildStatement } from "../server/domain/billing/statement.ts";
import { createPublisherAccount } from "../server/surfaces/manage/accounts.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { backupStore, backupStoreAt, restoreStore } from "../store/backup.ts";
import { loadMigrations, migrate, openStore, StoreError } from "../store/db.ts";
import { buyerNames, exists, snapshot } from "./store_files.ts";

const NOW = new Date("2026-11-15T12:00:00Z");
const ROOT = new URL("..", import.meta.url).pathname;
const CLI = new URL("../scripts/folio.ts", import.meta.url).pathname;
const LATEST = (await loadMigrations()).at(-1)!.version;
// The schema version the previous build left: that of the migration before the last (numbers may
// skip one while branches that each add a migration are merged).
const PREVIOUS = (await loadMigrations()).at(-2)!.version;

// Another process writing metered and landing reads through the store's own cap-checked write,
// as the service does, with ids that increase so that "written before the backup" is a prefix.
const WRITER = `
import { openStore } from "${new URL("../store/db.ts", import.meta.url)}";
import { insertChargeWithinCap } from "${new URL("../store/charges.ts", import.meta.url)}";
const [url, stop, buyerId, ...publishers] = Deno.args;
const store = await openStore(url, { now: new Date(${NOW.getTime()}) });
const commits = [];
for (let seq = 1; ; seq++) {
  if (seq % 10 === 1) { try { Deno.statSync(stop); break; } catch { /* keep writing */ } }
  const landing = seq % 3 === 0;
  const micros = 10_000 + (seq * 7919) % 50_000;
  const fee = landing ? Math.round(micros * 0.047) : 0;
  const { written } = await insertChargeWithinCap(store.db, {
    id: "chg_w" + String(seq).padStart(8, "0"), buyerId, publisherId: publishers[seq % 2],
    articleId: "art_" + (seq % 40), useCase: "display", kind: landing ? "landing" : "metered",
    micros, priceMicros: micros - fee, feeMicros: fee, month: "2026-11",
    capMicros: Number.MAX_SAFE_INTEGER, idempotencyKey: "w" + seq, requestHash: "h" + seq,
    identity: "buyer:" + buyerId, surface: "rest", now: new Date(${NOW.getTime()}),
  });
  if (!written) throw new Error("charge " + seq + " was not written");
  commits.push(Date.now());
}
store.close();
console.log(JSON.stringify(commits));
`;

// A process that keeps the store open, idle, until its stdin closes: a running service.
const HOLDER = `
import { openStore } from "${new URL("../store/db.ts", import.meta.url)}";
const store = await openStore(Deno.args[0], { now: new Date(${NOW.getTime()}) });
console.log("open");
for await (const _ of Deno.stdin.readable) { /* wait */ }
store.close();
`;

Deno.test("a backup taken while another process writes charges restores to the same ledger and statements at one point", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-backup-" });
  try {
    await Deno.mkdir(`${dir}/live`);
    await Deno.mkdir(`${dir}/restored`);
    const url = `file:${dir}/live/folio.db`;
    const source = await openStore(url, { now: NOW });
    const db = source.db;
    const buyer = await createBuyer(db, { name: "Acme AI", email: "ops@acme.test" }, { now: NOW });
    const publishers: string[] = [];
    for (const slug of ["harbour", "valley"]) {
      const { publisher } = await createPublisherAccount(
        db,
        { name: `The ${slug} Post`, slug, email: null, customDomain: null },
        { now: NOW },
      );
      publishers.push(publisher.id);
    }
    // Last month's ledger: enough rows that copying the store takes a while.
    await db.execute({
      sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, use_case, kind,
              price_micros, fee_micros, month, statement_month, idempotency_key, identity,
              surface, created_at)
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            SELECT printf('chg_a%08d', i), ?1, CASE i % 2 WHEN 0 THEN ?2 ELSE ?3 END,
              'art_' || (i % 40), 'display', 'metered', 1000 + i % 97, 0, '2026-10', '2026-10',
              'a' || i, 'buyer:' || ?1, 'rest', ?4 FROM n`,
      args: [buyer.buyerId, publishers[0], publishers[1], NOW.getTime()],
    });

    const stop = `${dir}/stop`;
    const writer = new Deno.Command(Deno.execPath(), {
      args: ["eval", WRITER, url, stop, buyer.buyerId, ...publishers],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = writer.output();
    const written = async () => {
      const rs = await db.execute("SELECT COUNT(*) AS n FROM charges WHERE id LIKE 'chg_w%'");
      return Number(rs.rows[0].n);
    };
    try {
      await until(async () => await written() >= 200, "the writer to start");
      const beforeBackup = await written();
      const backup = await backupStore(db, `${dir}/folio.backup`);
      assert.equal(backup.version, LATEST);
      assert.equal(backup.bytes, (await Deno.stat(`${dir}/folio.backup`)).size);
      const atBackup = await written();
      await until(async () => await written() >= atBackup + 200, "the writer to go on");
      await Deno.writeTextFile(stop, "");
      const out = await output;
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const commits: number[] = JSON.parse(new TextDecoder().decode(out.stdout));

      const restored = await restoreStore(`${dir}/folio.backup`, `file:${dir}/restored/folio.db`, {
        latestVersion: LATEST,
        now: NOW,
      });
      assert.deepEqual(restored, {
        version: LATEST,
        target: `${dir}/restored/folio.db`,
        previous: null,
      });
      const copy = await openStore(`file:${dir}/restored/folio.db`, { now: NOW });
      try {
        const charges = async (on: typeof db, upTo = "chg_w~") => {
          const sql = "SELECT * FROM charges WHERE id <= ? ORDER BY id";
          return (await on.execute({ sql, args: [upTo] })).rows.map((r) => ({ ...r }));
        };
        const inCopy = await charges(copy.db);
        const lastId = String(inCopy.at(-1)!.id);
        const seq = Number(lastId.slice("chg_w".length));
        // Exactly the writer's charges 1..seq, each as the source has it: a prefix, none torn.
        // The copy is the store as of a moment during the backup: no earlier, no later (no clock).
        assert.ok(
          seq >= beforeBackup && seq <= atBackup,
          `${seq} not in ${beforeBackup}..${atBackup}`,
        );
        assert.ok(seq < commits.length, `${seq} of ${commits.length}`);
        assert.equal(inCopy.length, 30000 + seq);
        assert.deepEqual(inCopy, await charges(db, lastId));
        // No torn write: each month's running spend is exactly its charges (one batch wrote both).
        const spend = await copy.db.execute(
          `SELECT s.publisher_id, s.metered_micros, (SELECT SUM(price_micros + fee_micros)
             FROM charges c WHERE c.buyer_id = s.buyer_id AND c.publisher_id = s.publisher_id
             AND c.month = s.month) AS charged FROM monthly_spend s WHERE s.month = '2026-11'`,
        );
        assert.equal(spend.rows.length, 2);
        for (const r of spend.rows) assert.equal(Number(r.metered_micros), Number(r.charged));

        // The statements of the restored store are the source's with only the rows up to then.
        await db.execute({ sql: "DELETE FROM charges WHERE id > ?", args: [lastId] });
        for (const month of ["2026-10", "2026-11"]) {
          const expected = await buildStatement(db, buyer.buyerId, month);
          assert.ok(expected.lines.length > 0);
          assert.deepEqual(await buildStatement(copy.db, buyer.buyerId, month), expected);
        }
      } finally {
        copy.close();
      }
    } finally {
      await Deno.writeTextFile(stop, "");
      await output.catch(() => {});
      source.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("backup refuses an existing file, a missing directory, a missing store and a remote store", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-backup-" });
  try {
    const store = await openStore(`file:${dir}/folio.db`, { now: NOW });
    try {
      await Deno.writeTextFile(`${dir}/taken.db`, "an older backup");
      await assert.rejects(
        backupStore(store.db, `${dir}/taken.db`),
        new StoreError(`${dir}/taken.db already exists; a backup never overwrites a file`),
      );
      assert.equal(await Deno.readTextFile(`${dir}/taken.db`), "an older backup");
      await assert.rejects(
        backupStore(store.db, `${dir}/nowhere/b.db`),
        new StoreError(`The directory of the backup, ${dir}/nowhere, does not exist`),
      );
      // A quote in the path is data, not SQL.
      const quoted = await backupStore(store.db, `${dir}/it's'); DROP TABLE buyers; --.db`);
      assert.equal(quoted.version, LATEST);
    } finally {
      store.close();
    }
    await assert.rejects(
      backupStoreAt(`file:${dir}/absent.db`, `${dir}/b.db`),
      new StoreError(`There is no store at ${dir}/absent.db to back up`),
    );
    assert.equal(await exists(`${dir}/absent.db`), false);
    const remote = createClient({ url: "http://127.0.0.1:9" });
    try {
      await assert.rejects(backupStore(remote, `${dir}/r.db`), /remote store.*point-in-time/);
    } finally {
      remote.close();
    }
    await assert.rejects(
      backupStoreAt("libsql://folio.example.test", `${dir}/r.db`),
      /remote store.*point-in-time/,
    );
    assert.equal(await exists(`${dir}/r.db`), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("restore refuses a newer schema, a foreign or missing file and a remote target, changing nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-" });
  try {
    const target = `${dir}/folio.db`;
    const store = await openStore(`file:${target}`, { now: NOW });
    await createBuyer(store.db, { name: "Acme AI", email: "ops@acme.test" }, { now: NOW });
    await backupStore(store.db, `${dir}/good.backup`);
    await backupStore(store.db, `${dir}/newer.backup`);
    // Closing checkpoints the WAL and removes its sidecars before the directory is compared.
    store.close();
    const newer = createClient({ url: `file:${dir}/newer.backup` });
    await newer.execute(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)",
    );
    newer.close();
    await Deno.writeTextFile(`${dir}/notes.txt`, "not a database at all, ".repeat(100));

    const before = await snapshot(dir);
    const restore = (file: string, url = `file:${target}`) =>
      restoreStore(file, url, { latestVersion: LATEST, now: NOW });
    await assert.rejects(
      restore(`${dir}/newer.backup`),
      new StoreError(
        `The backup ${dir}/newer.backup has schema version 999, newer than this build's ${LATEST}; upgrade Folio first, then restore it`,
      ),
    );
    await assert.rejects(
      restore(`${dir}/notes.txt`),
      new StoreError(
        `The backup ${dir}/notes.txt is not a SQLite database (corrupt or foreign)`,
      ),
    );
    await assert.rejects(
      restore(`${dir}/missing.backup`),
      new StoreError(`There is no backup at ${dir}/missing.backup`),
    );
    await assert.rejects(restore(`${dir}/good.backup`, "libsql://folio.example.test"), /remote/);
    assert.deepEqual(await snapshot(dir), before);

    // A store another process holds open is refused: tested through the CLI below.
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("restore of an older backup keeps the replaced store, and the next start migrates it forward", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-" });
  try {
    // The store as the previous build left it.
    const old = createClient({ url: `file:${dir}/old.db` });
    const previous = (await loadMigrations()).slice(0, -1);
    assert.equal(await migrate(old, previous, { now: NOW }), PREVIOUS);
    const older = await backupStore(old, `${dir}/old.backup`);
    old.close();
    assert.equal(older.version, PREVIOUS);

    const target = `${dir}/folio.db`;
    const current = await openStore(`file:${target}`, { now: NOW });
    const { buyerId } = await createBuyer(current.db, { name: "Acme AI", email: "a@acme.test" }, {
      now: NOW,
    });
    current.close();

    const r = await restoreStore(`${dir}/old.backup`, `file:${target}`, {
      latestVersion: LATEST,
      now: NOW,
    });
    const kept = `${target}.before-restore-20261115T120000Z`;
    assert.deepEqual(r, { version: PREVIOUS, target, previous: kept });
    // The kept store's -wal (empty: it was checkpointed first) and -shm went with it.
    assert.deepEqual((await snapshot(dir)).map(([name]) => name), [
      "folio.db",
      "folio.db.before-restore-20261115T120000Z",
      "folio.db.before-restore-20261115T120000Z-shm",
      "folio.db.before-restore-20261115T120000Z-wal",
      "folio.db.lock", // never moved or deleted: every process on the store meets on this file
      "old.backup",
      "old.db",
    ]);
    assert.equal((await Deno.stat(`${kept}-wal`)).size, 0);
    const restored = await openStore(`file:${target}`, { now: NOW });
    try {
      assert.equal(restored.version, LATEST);
      const n = await restored.db.execute("SELECT COUNT(*) AS n FROM buyers");
      assert.equal(Number(n.rows[0].n), 0);
    } finally {
      restored.close();
    }
    // The kept file is whole on its own, so undoing is one more restore.
    const undo = await restoreStore(kept, `file:${target}`, { latestVersion: LATEST, now: NOW });
    assert.equal(undo.previous, `${target}.before-restore-20261115T120000Z-2`);
    const back = await openStore(`file:${target}`, { now: NOW });
    try {
      const rs = await back.db.execute({ sql: "SELECT id FROM buyers", args: [] });
      assert.deepEqual(rs.rows.map((row) => row.id), [buyerId]);
    } finally {
      back.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the CLI backs up the store and restores it, with one line each and exit 1 on refusal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-cli-backup-" });
  try {
    const buyer = await folio(dir, "create-buyer", "--name=Acme AI", "--email=ops@acme.test");
    assert.equal(buyer.code, 0, buyer.stderr);

    const backup = await folio(dir, "backup", `--to=${dir}/monday.backup`);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(
      backup.stdout,
      new RegExp(
        `^Backed up the store \\(schema version ${LATEST}, \\d+\\.\\d (kB|MB)\\) to ${dir}/monday\\.backup$`,
      ),
    );
    const again = await folio(dir, "backup", `--to=${dir}/monday.backup`);
    assert.equal(again.code, 1);
    assert.equal(
      again.stderr,
      `folio: ${dir}/monday.backup already exists; a backup never overwrites a file`,
    );
    const noFlag = await folio(dir, "backup");
    assert.deepEqual([noFlag.code, noFlag.stderr], [1, "folio: --to is required"]);

    // Changed after the backup; the restore takes it back, the kept store still has it.
    assert.equal((await folio(dir, "create-buyer", "--name=Late", "--email=l@x.test")).code, 0);
    await Deno.mkdir(`${dir}/search`);
    await Deno.writeTextFile(`${dir}/search/pub_x.vectors`, "stale");

    await Deno.copyFile(`${dir}/monday.backup`, `${dir}/newer.backup`);
    const newer = createClient({ url: `file:${dir}/newer.backup` });
    await newer.execute(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)",
    );
    newer.close();
    const refused = await folio(dir, "restore", `--from=${dir}/newer.backup`);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `folio: The backup ${dir}/newer.backup has schema version 999, newer than this build's ${LATEST}; upgrade Folio first, then restore it`,
    );
    assert.equal(await exists(`${dir}/search/pub_x.vectors`), true);

    const restore = await folio(dir, "restore", `--from=${dir}/monday.backup`);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(
      restore.stdout,
      new RegExp(
        `^Restored ${dir}/monday\\.backup \\(schema version ${LATEST}\\) into ${dir}/folio\\.db; the previous store is kept at ${dir}/folio\\.db\\.before-restore-\\d{8}T\\d{6}Z\\.$`,
      ),
    );
    assert.equal(await exists(`${dir}/search`), false);
    assert.deepEqual(await buyerNames(`${dir}/folio.db`), ["Acme AI"]);
    const kept = /kept at (\S+)\.$/.exec(restore.stdout)![1];
    assert.deepEqual(await buyerNames(kept), ["Acme AI", "Late"]);
    await holding(`file:${dir}/folio.db`, async () => {
      const busy = await folio(dir, "restore", `--from=${dir}/monday.backup`);
      assert.equal(busy.code, 1);
      assert.equal(
        busy.stderr,
        `folio: The store ${dir}/folio.db is in use; stop Folio (every process on this store) before restoring`,
      );
    });

    // A backup from the previous build: restored as it is, migrated by the next start.
    const old = createClient({ url: `file:${dir}/old.db` });
    await migrate(old, (await loadMigrations()).slice(0, -1), { now: NOW });
    await backupStore(old, `${dir}/old.backup`);
    old.close();
    const older = await folio(dir, "restore", `--from=${dir}/old.backup`);
    assert.equal(older.code, 0, older.stderr);
    assert.match(
      older.stdout,
      new RegExp(
        `\\(schema version ${PREVIOUS}\\) into .*\\. Start Folio to migrate it to version ${LATEST}\\.$`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs `fn` while another process has the store open and idle, as a running service does. */
async function holding(url: string, fn: () => Promise<void>): Promise<void> {
  const holder = new Deno.Command(Deno.execPath(), {
    args: ["eval", HOLDER, url],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  try {
    const reader = holder.stdout.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), "open\n");
    reader.releaseLock();
    await fn();
  } finally {
    await holder.stdin.close();
    await holder.output();
  }
}

async function folio(dir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "--allow-all",
      CLI,
      ...args,
    ],
    env: { NO_COLOR: "1", FOLIO_DATA_DIR: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!await condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
