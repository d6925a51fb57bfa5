/**
 * Cold start (issue 39, part 4): the README's first command, `deno task start`, on an empty
 * `DENO_DIR`, until the server prints that it is serving, against a baseline in the same run: a
 * minimal Hono + libSQL app (the same pinned versions, one route, one query) started the same way.
 * Prints, for each, the seconds to the first answer, the CPU seconds the process used until then
 * (the figure to read on a loaded machine), the npm packages fetched and the files the cache holds
 * then (a profile of a cold start is mostly the kernel creating them), then the ratios.
 * The Deno binary itself is already cached (npx keeps it); only the module graph is cold.
 *
 *   deno run -A scripts/cold_start.ts [--only=baseline|folio]
 *
 * `deno task` fetches every npm package of the configuration's `imports` before it runs a task;
 * the project names its imports in import_map.json (`importMap`), which it leaves alone, so what
 * the start fetches is what `deno run --lock=deno.serve.lock` needs (docs/decisions/operations.md).
 * Beside the cold row: the packages deno.serve.lock holds (a cold start that fetched more pulled
 * something outside it), and the same command again on the now warm cache (`folio-warm`: the
 * start-up work alone, migrations, seeding and transpiling included, with nothing to fetch).
 *
 * Target (docs/PERFORMANCE.md): at most 2× the baseline's seconds.
 */
import { TARGETS, verdict } from "./targets.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const flags = Object.fromEntries(
  Deno.args.map((a) => /^--([^=]+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, ""]),
);
const imports = JSON.parse(await Deno.readTextFile(`${ROOT}import_map.json`)).imports;
const serveLock = JSON.parse(await Deno.readTextFile(`${ROOT}deno.serve.lock`));

const BASELINE = `import { Hono } from "hono";
import { createClient } from "@libsql/client";
const db = createClient({ url: "file:" + Deno.env.get("DB") });
await db.execute("CREATE TABLE IF NOT EXISTS t (x)");
const app = new Hono();
app.get("/", async (c) => c.json((await db.execute("SELECT 1 AS one")).rows[0]));
Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log("serving on http://127.0.0.1:" + port) }, app.fetch);
`;

/** npm packages in a DENO_DIR (name@version directories of the registry cache). */
async function packages(dir: string): Promise<number> {
  const base = `${dir}/npm/registry.npmjs.org`;
  let n = 0;
  const walk = async (d: string, depth: number) => {
    for await (const e of Deno.readDir(d)) {
      if (!e.isDirectory) continue;
      if (e.name.startsWith("@") && depth === 0) await walk(`${d}/${e.name}`, 1);
      else {
        for await (const v of Deno.readDir(`${d}/${e.name}`)) if (v.isDirectory) n++;
      }
    }
  };
  await walk(base, 0).catch(() => {});
  return n;
}

/**
 * The CPU seconds (user and system, every thread) a process and its descendants (`deno task`
 * runs the server as its child) have used so far, from /proc: on a shared machine the wall time is
 * mostly the wait for a core, this is the work (null off Linux).
 */
async function cpuOf(pid: number): Promise<number | null> {
  // Fields after the command name: ppid is the 4th, utime and stime the 14th and 15th (ticks).
  const stats = new Map<number, { ppid: number; ticks: number }>();
  try {
    for await (const e of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      const stat = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => null);
      if (!stat) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(e.name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    }
  } catch {
    return null;
  }
  if (!stats.has(pid)) return null;
  let ticks = 0;
  const pending = [pid];
  while (pending.length) {
    const p = pending.pop()!;
    ticks += stats.get(p)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === p) pending.push(child);
  }
  return ticks / 100;
}

/** Files in a directory tree: what a cold start wrote (new files cost the kernel most of it). */
async function files(dir: string): Promise<number> {
  let n = 0;
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(`${d}/${e.name}`);
      else n++;
    }
  };
  await walk(dir).catch(() => {});
  return n;
}

async function run(
  name: string,
  cwd: string,
  args: string[],
  env: Record<string, string>,
  opts: { denoDir?: string; keep?: boolean } = {},
) {
  const denoDir = opts.denoDir ?? await Deno.makeTempDir({ prefix: `folio-cold-${name}-` });
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { ...env, DENO_DIR: denoDir, NO_COLOR: "1", PORT: "0", FOLIO_HOST: "127.0.0.1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let served = false;
  while (!served) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
    served = /serving on http/.test(out);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = await cpuOf(child.pid);
  child.kill("SIGTERM");
  await child.status;
  await reader.cancel().catch(() => {});
  const errors = await new Response(child.stderr).text().catch(() => "");
  const fetched = await packages(denoDir);
  const written = await files(denoDir);
  if (!opts.keep) await Deno.remove(denoDir, { recursive: true }).catch(() => {});
  if (!served) throw new Error(`${name} never served: ${out.slice(-500)} ${errors.slice(-1500)}`);
  return {
    name,
    seconds: Math.round(seconds * 10) / 10,
    cpuSeconds: cpuSeconds === null ? null : Math.round(cpuSeconds * 100) / 100,
    packages: fetched,
    files: written,
    denoDir,
  };
}

if (import.meta.main) {
  const rows = [];
  if (!flags.only || flags.only === "baseline") {
    const dir = await Deno.makeTempDir({ prefix: "folio-cold-app-" });
    await Deno.writeTextFile(`${dir}/main.ts`, BASELINE);
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({
        imports: { hono: imports.hono, "@libsql/client": imports["@libsql/client"] },
        nodeModulesDir: "none",
      }),
    );
    rows.push(
      await run("baseline", dir, ["run", "-A", "main.ts"], { DB: `${dir}/base.db` }),
    );
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  if (!flags.only || flags.only === "folio") {
    // The README's first command (its first line, `npx --yes deno@… ` replaced by this Deno).
    const first = (await Deno.readTextFile(`${ROOT}README.md`)).split("\n")[0];
    const args = first.replace(/^npx --yes deno@\S+ /, "").split(/\s+/);
    const data = () => Deno.makeTempDir({ prefix: "folio-cold-data-" });
    const dataDir = await data();
    const cold = await run("folio", ROOT, args, { FOLIO_DATA_DIR: dataDir }, { keep: true });
    rows.push(cold);
    // Again on the same cache and a new store: what the start costs with nothing to fetch.
    const warmData = await data();
    rows.push(
      await run("folio-warm", ROOT, args, { FOLIO_DATA_DIR: warmData }, {
        denoDir: cold.denoDir,
      }),
    );
    for (const d of [dataDir, warmData]) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
  for (const r of rows) {
    const { denoDir: _, ...row } = r;
    const lock = r.name === "folio" ? { serveLockPackages: Object.keys(serveLock.npm).length } : {};
    console.log(JSON.stringify({ bench: "cold-start", ...row, ...lock }));
  }
  const base = rows.find((r) => r.name === "baseline");
  const folio = rows.find((r) => r.name === "folio");
  if (base && folio) {
    const ratio = Math.round(folio.seconds / base.seconds * 10) / 10;
    const cpuRatio = folio.cpuSeconds && base.cpuSeconds
      ? Math.round(folio.cpuSeconds / base.cpuSeconds * 10) / 10
      : null;
    console.log(JSON.stringify({
      bench: "cold-start",
      ratio,
      ...verdict(TARGETS.coldStart, ratio),
      packagesRatio: Math.round(folio.packages / Math.max(1, base.packages) * 10) / 10,
    }));
    if (cpuRatio !== null) {
      console.log(JSON.stringify({
        bench: "cold-start",
        cpuRatio,
        ...verdict(TARGETS.coldStartCpu, cpuRatio),
      }));
    }
  }
}
