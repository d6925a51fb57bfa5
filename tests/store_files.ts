/** Looking at a store's files from a test without opening them in place (backup and restore). */
import { createClient } from "@libsql/client";

/**
 * The buyers in the store file at `path`, read from a copy: the libSQL driver releases a file only
 * when its client is garbage-collected, not on close(), so opening the store itself here would
 * keep it open and a later restore would rightly refuse it.
 */
export async function buyerNames(path: string): Promise<unknown[]> {
  const scratch = await Deno.makeTempDir({ prefix: "folio-peek-" });
  try {
    await Deno.copyFile(path, `${scratch}/peek.db`);
    await Deno.copyFile(`${path}-wal`, `${scratch}/peek.db-wal`).catch(() => {});
    const db = createClient({ url: `file:${scratch}/peek.db` });
    try {
      return (await db.execute("SELECT name FROM buyers ORDER BY name")).rows.map((r) => r.name);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** Each file in `dir` with its bytes, to show that a refusal changed nothing. */
export async function snapshot(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile) continue;
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${dir}/${e.name}`));
    out.push([e.name, btoa(String.fromCharCode(...new Uint8Array(digest)))]);
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
