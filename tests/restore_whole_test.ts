/**
 * `folio restore` takes only a whole Folio store (docs/OPERATIONS.md "Backup and restore"): every
 * table, index and trigger the migrations it records create. Run as the `folio` task does; each
 * refusal names what is missing and changes nothing.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { backupStore } from "../store/backup.ts";
import { loadMigrations, openStore } from "../store/db.ts";
import { buyerNames, snapshot } from "./store_files.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const NOW = new Date("2026-11-15T12:00:00Z");
const MIGRATIONS = await loadMigrations();
const LATEST = MIGRATIONS.at(-1)!.version;

async function folioTask(dir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "folio", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", FOLIO_DATA_DIR: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A copy of `good` changed by `sql`, or a new SQLite file made by it when `good` is null. */
async function variant(dir: string, name: string, good: string | null, sql: string) {
  const path = `${dir}/backups/${name}`;
  if (good) await Deno.copyFile(good, path);
  const db = createClient({ url: `file:${path}` });
  try {
    await db.executeMultiple(sql);
  } finally {
    db.close();
  }
  return path;
}

Deno.test("restore refuses a partial store naming what is missing, and an unrelated SQLite file, changing nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-restore-whole-" });
  try {
    await Deno.mkdir(`${dir}/backups`);
    const store = await openStore(`file:${dir}/folio.db`, { now: NOW });
    await createBuyer(store.db, { name: "Acme AI", email: "ops@acme.test" }, { now: NOW });
    const good = `${dir}/backups/good.db`;
    await backupStore(store.db, good);
    store.close();

    const whole = `is not a whole Folio store of version ${LATEST}: missing`;
    const cases: [string, string][] = [
      [
        await variant(dir, "no-table.db", good, "DROP TABLE statements"),
        `${whole} table statements, trigger statements_closed_no_update, trigger statements_closed_no_delete`,
      ],
      [
        await variant(dir, "no-index.db", good, "DROP INDEX charges_by_statement"),
        `${whole} index charges_by_statement`,
      ],
      [
        await variant(
          dir,
          "no-trigger.db",
          good,
          "DROP TRIGGER articles_search_delete; DROP INDEX licenses_active",
        ),
        `${whole} index licenses_active, trigger articles_search_delete`,
      ],
      [
        await variant(dir, "notes.db", null, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body)"),
        "is a SQLite database but not a Folio store",
      ],
      [
        await variant(
          dir,
          "unmigrated.db",
          null,
          "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER)",
        ),
        "is not a Folio store: its schema_migrations table records no migration",
      ],
      [
        await variant(
          dir,
          "foreign-migration.db",
          good,
          "INSERT INTO schema_migrations VALUES (0, 'elsewhere', 0)",
        ),
        "records migrations this build does not have: 0",
      ],
      [
        await variant(
          dir,
          "latest-only.db",
          good,
          `DELETE FROM schema_migrations WHERE version < ${LATEST}`,
        ),
        `is not a whole Folio store of version ${LATEST}: its schema_migrations table does not ` +
        `record ${MIGRATIONS.length - 1} earlier migrations (${
          MIGRATIONS.slice(0, 10).map((m) => m.version).join(", ")
        }, …)`,
      ],
      [
        await variant(
          dir,
          "latest-only-of-one-table.db",
          null,
          `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER);
           INSERT INTO schema_migrations VALUES (${LATEST}, 'latest', 0)`,
        ),
        `is not a whole Folio store of version ${LATEST}: its schema_migrations table does not ` +
        `record ${MIGRATIONS.length - 1} earlier migrations (${
          MIGRATIONS.slice(0, 10).map((m) => m.version).join(", ")
        }, …)`,
      ],
    ];
    const before = await snapshot(dir);
    for (const [file, reason] of cases) {
      const r = await folioTask(dir, "restore", `--from=${file}`);
      assert.deepEqual([r.code, r.stderr], [1, `folio: The backup ${file} ${reason}`]);
    }
    assert.deepEqual(await snapshot(dir), before);

    // The whole one goes in.
    const ok = await folioTask(dir, "restore", `--from=${good}`);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(await buyerNames(`${dir}/folio.db`), ["Acme AI"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
