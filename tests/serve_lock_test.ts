/**
 * What a cold start fetches (issue 39, part 4; docs/decisions/operations.md, "What the start
 * fetches"): `deno task` installs deno.json's `imports` and its default lockfile before any task,
 * so deno.json names neither, and `deno run --lock=deno.serve.lock` installs every package of that
 * lockfile, so it must hold exactly what serving reaches: a package only an optional path loads
 * (by a variable specifier) that a run wrote into it would be fetched by every start.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

Deno.test("deno.json names its imports through import_map.json and has no default lockfile", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.equal(
    config.imports,
    undefined,
    "deno.json has `imports`: deno task would install them all before `task start`; put them in import_map.json",
  );
  assert.equal(config.importMap, "./import_map.json");
  assert.equal(config.lock, false, "a default lockfile is installed whole by `deno task`");
  const map = JSON.parse(await Deno.readTextFile(new URL(config.importMap, ROOT)));
  assert.ok(map.imports.hono && map.imports["@libsql/client"]);
  assert.match(config.tasks.start, /deno run --lock=deno\.serve\.lock /);
  for (const [name, task] of Object.entries(config.tasks as Record<string, string>)) {
    for (const run of task.matchAll(/deno (run|test|check) (\S+)/g)) {
      assert.match(run[2], /^--lock=deno(\.serve)?\.lock$/, `task ${name} names no lockfile`);
    }
  }
});

Deno.test("deno.serve.lock holds exactly the npm packages main.ts reaches", async () => {
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.serve.lock", ROOT)));
  // The graph resolved against the whole lockfile, so the serving one cannot shape the answer.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.lock", "main.ts"],
    cwd: ROOT.pathname,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    redirects: Record<string, string>;
    modules: {
      specifier: string;
      kind: string;
      npmPackage?: string;
      dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
    }[];
    npmPackages: Record<string, { dependencies?: string[] }>;
  };
  // The modules `deno run` loads: code imports only, since `import type` and `typeof import()`
  // (a lazily loaded path's types, docs/decisions/operations.md) are never fetched at start.
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
      // An npm types package named by `@ts-types` is resolved (and fetched) at start too.
      if (dep.type?.specifier?.startsWith("npm:")) pending.push(dep.type.specifier);
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
  const locked = Object.keys(lock.npm);
  assert.ok(reached.size > 50, `${reached.size} packages reached`);
  assert.deepEqual(
    locked.filter((p) => !reached.has(p)),
    [],
    "deno.serve.lock holds packages serving does not reach: every start would fetch them",
  );
  assert.deepEqual(
    [...reached].filter((p) => !locked.includes(p)),
    [],
    "serving reaches packages deno.serve.lock lacks: run `deno task start` once and commit it",
  );
});
