/**
 * deno.serve.lock, the start's lockfile (docs/decisions/operations.md, "What the start fetches"):
 * `deno run` installs every package of the lockfile it is given, so it must hold exactly the npm
 * packages main.ts reaches, at deno.lock's versions and hashes. This writes it from deno.lock
 * after a change to what main.ts reaches statically (`task start` runs on a copy, `.start.lock`,
 * so what loads on first use never writes itself here); tests/serve_lock_test.ts checks it.
 *
 *   deno run --lock=deno.lock --allow-run --allow-read --allow-write scripts/serve_lock.ts
 */

const ROOT = new URL("../", import.meta.url);

interface Info {
  roots: string[];
  redirects: Record<string, string>;
  modules: {
    specifier: string;
    kind: string;
    npmPackage?: string;
    dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
  }[];
  npmPackages: Record<string, { dependencies?: string[] }>;
}

/** The npm packages (lockfile ids, e.g. `zod@4.6.7`) that `deno run main.ts` fetches. */
export async function reachedPackages(): Promise<Set<string>> {
  // The graph resolved against the whole lockfile, so the serving one cannot shape the answer.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.lock", "main.ts"],
    cwd: ROOT.pathname,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  // The modules `deno run` loads: code imports only, since `import type` and `typeof import()`
  // (a lazily loaded path's types) are never fetched at start, nor is `import(variable)`.
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const loaded = new Set<string>();
  const npmRoots: string[] = [];
  const pending = [...info.roots];
  while (pending.length) {
    const specifier = pending.pop()!;
    const module = modules.get(info.redirects[specifier] ?? specifier);
    if (!module || loaded.has(module.specifier)) continue;
    loaded.add(module.specifier);
    if (module.kind === "npm" && module.npmPackage) npmRoots.push(module.npmPackage);
    for (const dep of module.dependencies ?? []) {
      if (dep.code?.specifier) pending.push(dep.code.specifier);
      // An npm types package named by `@ts-types` beside a code import is resolved (and fetched)
      // at start too; an `import type` of a package alone is not (an empty DENO_DIR stays empty).
      if (dep.code?.specifier && dep.type?.specifier?.startsWith("npm:")) {
        pending.push(dep.type.specifier);
      }
    }
  }
  // The packages those modules import, and everything those depend on.
  const reached = new Set<string>();
  const stack = npmRoots;
  while (stack.length) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    stack.push(...info.npmPackages[id]?.dependencies ?? []);
  }
  return reached;
}

interface Lock {
  version: string;
  specifiers: Record<string, string>;
  npm: Record<string, unknown>;
  workspace?: unknown;
}

if (import.meta.main) {
  const reached = await reachedPackages();
  const whole = JSON.parse(await Deno.readTextFile(new URL("deno.lock", ROOT))) as Lock;
  const missing = [...reached].filter((id) => !(id in whole.npm));
  if (missing.length) throw new Error(`deno.lock lacks ${missing.join(", ")}: run a task first`);
  const npm = Object.fromEntries(Object.entries(whole.npm).filter(([id]) => reached.has(id)));
  // `npm:name@range` -> the resolved id's version part (`1.3.0_express@5.3.0`).
  const specifiers = Object.fromEntries(
    Object.entries(whole.specifiers).filter(([spec, version]) => {
      const name = spec.replace(/^npm:/, "").replace(/^(@?[^@]+)@.*$/, "$1");
      return spec.startsWith("npm:") && reached.has(`${name}@${version}`);
    }),
  );
  const lock: Lock = { version: whole.version, specifiers, npm, workspace: whole.workspace };
  // As Deno writes it: a package's `os` and `cpu` on one line.
  const text = JSON.stringify(lock, null, 2).replace(
    /"(os|cpu)": \[([^\]]*)\]/g,
    (_, key, items: string) => `"${key}": [${items.trim().split(/,\s*/).join(", ")}]`,
  );
  await Deno.writeTextFile(new URL("deno.serve.lock", ROOT), text + "\n");
  console.log(`deno.serve.lock: ${Object.keys(npm).length} packages`);
}
