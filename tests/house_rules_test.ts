/**
 * The house rules fail the gate: `deno task ok` runs `deno lint` with the project's plugin
 * (scripts/house_rules.ts) and the import-cycle check (scripts/check_cycles.ts). Each rule is
 * broken once on purpose in a throwaway tree laid out like the repository, and must be reported
 * with its rule id at that file; the same tree's lawful code must not be.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const DENO = Deno.execPath();

/** Writes `files` under a temporary folder with the project's lint configuration. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "folio-rules-" });
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const plugins = (config.lint.plugins as string[]).map((p) => new URL(p, ROOT).href);
  await Deno.writeTextFile(
    `${dir}/deno.json`,
    JSON.stringify({
      lint: { ...config.lint, plugins },
      imports: JSON.parse(await Deno.readTextFile(new URL(config.importMap, ROOT))).imports,
    }),
  );
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

async function run(dir: string, args: string[]): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(DENO, {
    args,
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, output: text };
}

/** `<rule> <file>` for every folio/ finding in `deno lint` output, files relative to `dir`. */
function findings(output: string, dir: string): string[] {
  const found: string[] = [];
  const re = /error\[folio\/([\w-]+)\][^\n]*\n\s*--> ([^\n]+?):\d+:\d+/g;
  for (const m of output.matchAll(re)) found.push(`${m[1]} ${m[2].replace(`${dir}/`, "")}`);
  return found.sort();
}

Deno.test("deno lint fails on a deliberate violation of each house rule, naming the rule and the fix", async () => {
  const dir = await tree({
    "server/surfaces/rest/late.ts":
      "export const at = () => Date.now();\nexport const d = () => new Date();\n",
    "server/surfaces/mcp/leak.ts": 'export const get = () => fetch("http://169.254.169.254/");\n' +
      "export const raw = () => Deno.connect({ port: 80 });\n",
    "server/surfaces/a2a/query.ts":
      'export const q = "SELECT id FROM articles WHERE publisher_id = ?";\n',
    "server/surfaces/rest/lower.ts":
      'export const q = "select id from articles where publisher_id = ?";\n',
    "search/index.ts": "export const q = `update search_docs set dirty = 1`;\n" +
      'export const p = "pragma query_only = 1";\n',
    "store/upward.ts": 'import { createApp } from "../server/app.ts";\nexport { createApp };\n',
    "search/upward.ts":
      'import { decide } from "../server/domain/licensing/decide.ts";\nexport { decide };\n',
    "ui/page.tsx": 'import { listRecent } from "../store/articles.ts";\nexport { listRecent };\n',
    "server/app.ts":
      'import { Hono } from "hono";\nimport { requestId } from "./middleware.ts";\n' +
      'const app = new Hono();\napp.use(requestId());\napp.use("*", async (_c, next) => await next());\n' +
      "export { app };\n",
    "server/thing/mod.ts":
      'export { a } from "./a.ts";\nexport function helper() {\n  return 1;\n}\n',
    "server/surfaces/rest/borrow.ts": 'export { mcpJsonRoute } from "../mcp/routes.ts";\n',
    "server/surfaces/manage/show.ts":
      'import { consolePages } from "../../pages/console/routes.ts";\nexport { consolePages };\n',
    "server/pages/peek.ts":
      'import { restRoutes } from "../surfaces/rest/routes.ts";\nexport { restRoutes };\n',
    "server/domain/reads/up.ts":
      'const m = () => import("../../surfaces/a2a/routes.ts");\nexport { m };\n',
    "server/platform/memory.ts": "export const env = () => Deno.env.get('TRIM');\n",
    "server/platform/up.ts":
      'import { decide } from "../domain/licensing/decide.ts";\nexport { decide };\n',
    "server/domain/billing/add.ts":
      "export const total = (priceMicros: number, feeMicros: number) => priceMicros + feeMicros;\n" +
      "export const whole = (cents: number) => Math.round(cents);\n",
    "ui/amount.tsx":
      "export const usd = (l: { amountUsdCents: number }) => l.amountUsdCents / 100;\n" +
      "export const more = (p: { pricingUsdCents: number[] }, i: number) => {\n" +
      "  let t = 0;\n  t += p.pricingUsdCents[i];\n  return t;\n};\n",
    // Lawful code the rules must leave alone.
    "server/platform/money.ts": "export const toCents = (micros: number) => micros / 10_000;\n",
    "server/domain/billing/cap.ts":
      "export const within = (spentMicros: number, capMicros: number) => spentMicros <= capMicros;\n" +
      'export const label = (priceText: string) => "Price: " + priceText;\n' +
      "export const next = (pages: number) => pages + 1;\n",
    "tests/money_test.ts": "export const dollars = (cents: number) => cents / 100;\n",
    "server/surfaces/openapi/rest.ts":
      'import { ArticleSchema } from "../rest/schemas.ts";\nexport { ArticleSchema };\n',
    "server/pages/buyer/form.ts":
      'import { buyerSchema } from "../../surfaces/marketplace/schemas.ts";\n' +
      'import { api } from "../kit/api.ts";\nimport { readArticle } from "../../domain/reads/mod.ts";\n' +
      "export { api, buyerSchema, readArticle };\n",
    "server/surfaces/rest/own.ts": 'import { restRoutes } from "./routes.ts";\n' +
      'import { clock } from "../../platform/clock.ts";\nexport { clock, restRoutes };\n',
    "server/platform/clock.ts": "export const now = () => new Date();\n",
    "server/domain/catalog/fetcher.ts": 'export const get = () => fetch("https://example.com/");\n',
    "store/articles.ts":
      'export const SQL = "SELECT id FROM articles";\nexport const when = (t: number) => new Date(t);\n',
    "ui/ok.tsx": 'import type { Article } from "../store/articles.ts";\n' +
      'import { type Policy } from "../store/vocabulary.ts";\nexport type A = Article | Policy;\n',
    "server/words.ts": 'export const hint = "Select a file, then UPDATE your settings";\n' +
      'export const tip = "Delete from your list the keys you no longer use.";\n',
    "server/platform/config.ts": "export const env = () => Deno.env.toObject();\n",
    "tests/x_test.ts": "export const t = Date.now();\nexport const e = Deno.env.get('X');\n",
    "scripts/bench.ts": 'export const f = () => fetch("http://127.0.0.1/");\n',
  });
  try {
    const { code, output } = await run(dir, ["lint"]);
    assert.notEqual(code, 0, "deno lint must fail");
    assert.deepEqual(findings(output, dir), [
      "clock-only server/surfaces/rest/late.ts",
      "clock-only server/surfaces/rest/late.ts",
      "env-in-config server/platform/memory.ts",
      "mod-reexports-only server/thing/mod.ts",
      "money-in-money server/domain/billing/add.ts",
      "money-in-money server/domain/billing/add.ts",
      "money-in-money ui/amount.tsx",
      "money-in-money ui/amount.tsx",
      "network-through-fetcher server/surfaces/mcp/leak.ts",
      "network-through-fetcher server/surfaces/mcp/leak.ts",
      "no-root-wildcard-use server/app.ts",
      "sql-in-store search/index.ts",
      "sql-in-store search/index.ts",
      "sql-in-store server/surfaces/a2a/query.ts",
      "sql-in-store server/surfaces/rest/lower.ts",
      "store-below-server search/upward.ts",
      "store-below-server store/upward.ts",
      "surface-isolation server/domain/reads/up.ts",
      "surface-isolation server/pages/peek.ts",
      "surface-isolation server/platform/up.ts",
      "surface-isolation server/surfaces/manage/show.ts",
      "surface-isolation server/surfaces/rest/borrow.ts",
      "ui-takes-data ui/page.tsx",
    ]);
    // Every message says what to do instead.
    for (
      const fix of [
        "deps.clock.now()",
        "add a field to Config there",
        "deps.fetcher.fetch()",
        "add a function there",
        "pass it in",
        "pass it as props",
        "mounted by its prefix",
        "re-export it here",
        "move what they share into server/domain/",
        "pages call the APIs",
        "pages import only a surface's *schemas.ts",
        "write amounts with formatUsd() on pages",
      ]
    ) {
      assert.ok(output.includes(fix), `a message says "${fix}"`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the import-cycle check fails on a value cycle and names its modules, but not on type imports", async () => {
  const dir = await tree({
    "main.ts": 'import "./server/a.ts";\nimport "./server/c.ts";\n',
    "server/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
    "server/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
    "server/c.ts":
      'import type { d } from "./d.ts";\nexport const c = 1;\nexport type C = typeof d;\n',
    "server/d.ts": 'import { c } from "./c.ts";\nexport const d = c;\n',
  });
  try {
    const script = new URL("scripts/check_cycles.ts", ROOT).href;
    const { code, output } = await run(dir, [
      "run",
      "--allow-run",
      "--allow-read",
      script,
      "main.ts",
    ]);
    assert.equal(code, 1);
    assert.match(output, /folio\/no-import-cycle\]: .*server\/a\.ts, server\/b\.ts/);
    assert.match(output, /fix: move what they share into a lower module/);
    assert.doesNotMatch(output, /server\/c\.ts|server\/d\.ts/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the repository itself keeps every house rule", async () => {
  const cwd = new URL(".", ROOT).pathname;
  const lint = await run(cwd, ["lint"]);
  assert.equal(lint.code, 0, lint.output);
  const cycles = await run(cwd, ["task", "check:cycles"]);
  assert.equal(cycles.code, 0, cycles.output);
  assert.match(cycles.output, /0 import cycle\(s\)/);
});
