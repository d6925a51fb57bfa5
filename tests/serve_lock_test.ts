/**
 * What a cold start fetches (issue 39, part 4; docs/decisions/operations.md, "What the start
 * fetches"): `deno task` installs deno.json's `imports` and its default lockfile before any task,
 * so deno.json names neither, and `deno run --lock=deno.serve.lock` installs every package of that
 * lockfile, so it must hold exactly what serving reaches: a package only an optional path loads
 * (by a variable specifier) that a run wrote into it would be fetched by every start.
 * scripts/serve_lock.ts writes it from deno.lock.
 */
import assert from "node:assert/strict";
import { reachedPackages } from "../scripts/serve_lock.ts";
import { SERVE_V8_FLAGS } from "../server/platform/memory.ts";

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
  // The start runs on a copy, so what loads on first use never writes into the tracked lock.
  assert.match(
    config.tasks.start,
    /^cp deno\.serve\.lock \.start\.lock && .*deno run --lock=\.start\.lock /,
  );
  // The serving process's heap policy, the same in the start, the binary and the benches' servers.
  assert.ok(
    config.tasks.start.includes(` --v8-flags=${SERVE_V8_FLAGS} `),
    `task start runs with --v8-flags=${SERVE_V8_FLAGS} (server/platform/memory.ts)`,
  );
  for (const [name, task] of Object.entries(config.tasks as Record<string, string>)) {
    for (const run of task.matchAll(/deno (run|test|check) (\S+)/g)) {
      assert.match(
        run[2],
        /^--lock=(deno(\.serve)?|\.start)\.lock$/,
        `task ${name} names no lockfile`,
      );
    }
  }
});

Deno.test("deno.serve.lock holds exactly the npm packages main.ts reaches", async () => {
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.serve.lock", ROOT)));
  const reached = await reachedPackages();
  const locked = Object.keys(lock.npm);
  assert.ok(reached.size > 50, `${reached.size} packages reached`);
  assert.deepEqual(
    locked.filter((p) => !reached.has(p)),
    [],
    "deno.serve.lock holds packages serving does not reach: every start would fetch them " +
      "(a lazily loaded package's first use under `task start` writes it there): " +
      "run scripts/serve_lock.ts",
  );
  assert.deepEqual(
    [...reached].filter((p) => !locked.includes(p)),
    [],
    "serving reaches packages deno.serve.lock lacks: run scripts/serve_lock.ts and commit it",
  );
});
