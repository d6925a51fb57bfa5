/**
 * Whether a store file is a whole Folio store of the version it records (docs/OPERATIONS.md
 * "Backup and restore"): every table, index, trigger and view that its recorded migrations create.
 * The expected set is not written down anywhere: it is what applying those same migrations to an
 * empty store produces, so it follows every migration added later by itself.
 */
import { type Client, createClient } from "@libsql/client";
import { loadMigrations, migrate, StoreError } from "./db.ts";

/** Refuses the store file at `path` (named `shownAs`) unless its schema is whole. */
export async function needWholeStore(path: string, shownAs: string): Promise<void> {
  const db = createClient({ url: `file:${path}` });
  let recorded: number[];
  let present: Set<string>;
  try {
    const rs = await db.execute("SELECT version FROM schema_migrations ORDER BY version");
    recorded = rs.rows.map((r) => Number(r.version));
    present = new Set(await schemaObjects(db));
  } finally {
    db.close();
  }
  if (recorded.length === 0) {
    throw new StoreError(
      `The backup ${shownAs} is not a Folio store: its schema_migrations table records no migration`,
    );
  }
  const migrations = await loadMigrations();
  const known = new Set(migrations.map((m) => m.version));
  const unknown = recorded.filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new StoreError(
      `The backup ${shownAs} records migrations this build does not have: ${unknown.join(", ")}`,
    );
  }
  // A whole store of version N records every migration up to N: one recording only the latest
  // would otherwise be checked against that migration's objects alone.
  const latest = recorded.at(-1)!;
  const unrecorded = migrations.filter((m) => m.version <= latest && !recorded.includes(m.version));
  if (unrecorded.length > 0) {
    const shown = unrecorded.slice(0, 10).map((m) => m.version).join(", ");
    throw new StoreError(
      `The backup ${shownAs} is not a whole Folio store of version ${latest}: its ` +
        `schema_migrations table does not record ${unrecorded.length} earlier migrations (${shown}${
          unrecorded.length > 10 ? ", …" : ""
        })`,
    );
  }
  const expected = await schemaAfter(migrations.filter((m) => m.version <= latest));
  // Tables first, then indexes, triggers and views, each in the order the migrations create them.
  const rank = (o: string) => ["table", "index", "trigger", "view"].indexOf(o.split(" ")[0]);
  const missing = expected.filter((o) => !present.has(o)).sort((a, b) => rank(a) - rank(b));
  if (missing.length > 0) {
    throw new StoreError(
      `The backup ${shownAs} is not a whole Folio store of version ${recorded.at(-1)}: missing ${
        missing.join(", ")
      }`,
    );
  }
}

/** "table charges", "index charges_by_month", ... in creation order, SQLite's own left out. */
async function schemaObjects(db: Client): Promise<string[]> {
  const rs = await db.execute(
    "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
  );
  return rs.rows.map((r) => `${r.type} ${r.name}`);
}

/** The schema objects that `migrations` create on an empty store (a scratch file, then removed). */
async function schemaAfter(migrations: Awaited<ReturnType<typeof loadMigrations>>) {
  // A file, not :memory:: the client runs a transaction on a connection of its own, and a second
  // connection to :memory: is another, empty database.
  const dir = await Deno.makeTempDir({ prefix: "folio-schema-" });
  const db = createClient({ url: `file:${dir}/expected.db` });
  try {
    await migrate(db, migrations, { now: new Date(0) });
    return await schemaObjects(db);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
