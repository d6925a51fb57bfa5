/**
 * Folio's house rules as a `deno lint` plugin (deno.json `lint.plugins`), so a rule that lives in
 * ARCHITECTURE.md "House rules" also fails CI. Each message says the rule and the fix. Rules apply
 * to the product's code (main.ts, server/, store/, search/, ui/); tests and scripts are free to
 * read the time or the network.
 *
 * @module
 */

type Node = Deno.lint.Node;
type Context = Deno.lint.RuleContext;

/** The path of the linted file relative to the repository (the working directory). */
function pathOf(context: Context): string {
  const cwd = Deno.cwd().replace(/\/+$/, "");
  const file = context.filename;
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}

/** Product code: not tests, not test helpers, not scripts. */
function isProduct(path: string): boolean {
  if (/(^|\/)(_\w*test_utils|\w+_test)\.tsx?$/.test(path)) return false;
  return path === "main.ts" || /^(server|store|search|ui)\//.test(path);
}

/** `spec` resolved against the folder of `from`, as a repository path. */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

/**
 * The layer of a server/ module (ARCHITECTURE.md "Layers"): `surface:<name>` for
 * server/surfaces/<name>/, `pages`, `domain`, `platform`, or null for the assembly at the root
 * (app.ts, runtime.ts, deps.ts, crons.ts, well_known.ts, seed/), which may import anything.
 */
function layerOf(path: string): string | null {
  const m = /^server\/(surfaces\/([\w-]+)\/|pages\/|domain\/|platform\/)/.exec(path);
  if (!m) return null;
  return m[2] ? `surface:${m[2]}` : m[1].slice(0, -1);
}

/**
 * Platform modules that still read the domain: the agent surfaces' envelope and identity check
 * (reach, the caller, probe tokens, OAuth access tokens). Known debt, listed so no other
 * platform module starts; the cure is to move them up or pass the domain in.
 */
const PLATFORM_ON_DOMAIN = ["server/platform/envelope.ts", "server/platform/identity.ts"];

/** Why `from` may not import `to`, or null when the layers allow it. */
function layerBreach(from: string, to: string): string | null {
  const a = layerOf(from), b = layerOf(to);
  if (!a || !b || a === b) return null;
  const schemas = /schemas\.ts$/.test(to);
  if (a.startsWith("surface:") && b.startsWith("surface:")) {
    if (a === "surface:openapi" && schemas) return null;
    return "a surface never imports another surface: move what they share into server/domain/ " +
      "(or server/platform/ if it is plumbing)";
  }
  if (a.startsWith("surface:") && b === "pages") {
    return "surfaces never import pages: pages call the APIs, not the other way round";
  }
  if (a === "pages" && b.startsWith("surface:") && !schemas) {
    return "pages import only a surface's *schemas.ts (they call the API in process): move " +
      "what they share into server/domain/ or server/pages/kit/";
  }
  if ((a === "domain" || a === "platform") && (b.startsWith("surface:") || b === "pages")) {
    return `${a}/ sits below the surfaces and pages and must not import them: move the shared ` +
      `piece down into server/${a}/ or have the caller pass it in`;
  }
  if (a === "platform" && b === "domain" && !PLATFORM_ON_DOMAIN.includes(from)) {
    return "platform/ is plumbing below the domain and must not import it: move the shared " +
      "piece into server/platform/ or have the caller pass it in";
  }
  return null;
}

/** A rule that runs only on files for which `applies(path)` holds. */
function rule(
  applies: (path: string) => boolean,
  visitors: (context: Context, path: string) => Deno.lint.LintVisitor,
): Deno.lint.Rule {
  return {
    create(context) {
      const path = pathOf(context);
      return applies(path) ? visitors(context, path) : {};
    },
  };
}

const CLOCK = "server/platform/clock.ts";
const CONFIG = "server/platform/config.ts";
const NETWORK = [
  "server/domain/catalog/fetcher.ts",
  "server/domain/catalog/socks_tunnel.ts",
  "server/domain/catalog/dns.ts",
];
const NETWORK_CALLS = new Set([
  "connect",
  "connectTls",
  "startTls",
  "listen",
  "listenTls",
  "resolveDns",
]);
/**
 * A string that opens with an SQL statement, in any case ("select id from t" too). A SELECT must
 * name a FROM and a DELETE its table then WHERE or the end, so prose such as "Select a file" or
 * "Delete from your list" is not taken for SQL.
 */
const SQL =
  /^\s*(SELECT\s[^]*?\sFROM\s+[a-z_][\w.]*|INSERT INTO |UPDATE \w+ SET |DELETE FROM \w+\s*(WHERE\b|;|$)|CREATE (TABLE|INDEX|TRIGGER|VIRTUAL) |DROP (TABLE|INDEX) |ALTER TABLE |PRAGMA \w+)/i;

const MONEY = "server/platform/money.ts";
/** Names that hold an amount: `cents`, `micros`, `*Cents`, `*Micros`, `price*`. */
const MONEY_NAME = /^(cents|micros|price\w*)$|[a-z0-9](Cents|Micros)$/;
const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "**"]);
const ROUNDING = new Set(["round", "floor", "ceil", "trunc"]);

/** The amount-like name an operand reads (`x`, `a.priceMicros`, `p.pricingUsdCents[use]`), or null. */
function moneyName(node: Node): string | null {
  if (node.type === "Identifier") return MONEY_NAME.test(node.name) ? node.name : null;
  if (node.type === "TSNonNullExpression" || node.type === "ChainExpression") {
    return moneyName(node.expression);
  }
  if (node.type === "MemberExpression") {
    if (node.computed) return moneyName(node.object);
    return node.property.type === "Identifier" && MONEY_NAME.test(node.property.name)
      ? node.property.name
      : null;
  }
  return null;
}

function isText(node: Node): boolean {
  return (node.type === "Literal" && typeof node.value === "string") ||
    node.type === "TemplateLiteral";
}

function isMember(node: Node, object: string, property?: string): boolean {
  return node.type === "MemberExpression" && node.object.type === "Identifier" &&
    node.object.name === object && node.property.type === "Identifier" &&
    (property === undefined || node.property.name === property);
}

function textOf(node: Node): string | null {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral") return node.quasis.map((q) => q.cooked ?? "").join("${}");
  return null;
}

/** Folio's house rules. */
const plugin: Deno.lint.Plugin = {
  name: "folio",
  rules: {
    "clock-only": rule((p) => isProduct(p) && p !== CLOCK, (context) => ({
      CallExpression(node) {
        if (isMember(node.callee, "Date", "now")) {
          context.report({
            node,
            message: `Time is read only through the clock (${CLOCK}), so tests can move it: ` +
              "use deps.clock.now(), or take `now` from the caller.",
          });
        }
      },
      NewExpression(node) {
        if (
          node.callee.type === "Identifier" && node.callee.name === "Date" && !node.arguments.length
        ) {
          context.report({
            node,
            message: `new Date() reads the system clock: use deps.clock.now() (${CLOCK}), or ` +
              "take `now` from the caller.",
          });
        }
      },
    })),

    "env-in-config": rule((p) => isProduct(p) && p !== CONFIG, (context) => ({
      MemberExpression(node) {
        if (isMember(node, "Deno", "env")) {
          context.report({
            node,
            message: `The environment is read only by ${CONFIG}: add a field to Config there ` +
              "and pass the value in from the caller's config.",
          });
        }
      },
    })),

    "network-through-fetcher": rule((p) => isProduct(p) && !NETWORK.includes(p), (context) => ({
      CallExpression(node) {
        const callee = node.callee;
        const raw = (callee.type === "Identifier" && callee.name === "fetch") ||
          isMember(callee, "globalThis", "fetch") ||
          (callee.type === "MemberExpression" && isMember(callee, "Deno") &&
            callee.property.type === "Identifier" && NETWORK_CALLS.has(callee.property.name));
        if (raw) {
          context.report({
            node,
            message: "Server-side network access goes through the guarded fetcher " +
              `(${NETWORK[0]}): use deps.fetcher.fetch(), which refuses private addresses after ` +
              "DNS and on every redirect and bounds time and size.",
          });
        }
      },
    })),

    // Every product module but store/'s: server/, search/ (its SQL is in store/search_*.ts), ui/.
    "sql-in-store": rule((p) => isProduct(p) && !p.startsWith("store/"), (context) => {
      const check = (node: Node) => {
        const text = textOf(node);
        if (text !== null && SQL.test(text)) {
          context.report({
            node,
            message: "SQL belongs in store/ (one module per aggregate, publisherId first): add " +
              "a function there and call it from here.",
          });
        }
      };
      return { Literal: check, TemplateLiteral: check };
    }),

    "store-below-server": rule(
      (p) => isProduct(p) && /^(store|search)\//.test(p),
      (context, path) => ({
        ImportDeclaration(node) {
          const target = resolve(path, String(node.source.value));
          if (target?.startsWith("server/")) {
            context.report({
              node,
              message: `${path.split("/")[0]}/ sits below server/ and must not import it: move ` +
                "the shared piece down (domain words live in store/vocabulary.ts) or have the " +
                "caller pass it in.",
            });
          }
        },
      }),
    ),

    "ui-takes-data": rule((p) => isProduct(p) && p.startsWith("ui/"), (context, path) => ({
      ImportDeclaration(node) {
        const target = resolve(path, String(node.source.value));
        const typeOnly = node.importKind === "type" ||
          (node.specifiers.length > 0 &&
            node.specifiers.every((s) => s.type === "ImportSpecifier" && s.importKind === "type"));
        if (target?.startsWith("store/") && !typeOnly) {
          context.report({
            node,
            message: "Pages are handed their data: ui/ may import types from store/, never " +
              "values. Load the data in the route (through server/) and pass it as props.",
          });
        }
      },
    })),

    "surface-isolation": rule(
      (p) => isProduct(p) && p.startsWith("server/"),
      (context, path) => {
        const check = (node: Node, source: Node | null | undefined) => {
          if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
          const target = resolve(path, source.value);
          const why = target ? layerBreach(path, target) : null;
          if (why) context.report({ node, message: `${path} imports ${target}: ${why}.` });
        };
        return {
          ImportDeclaration: (node) => check(node, node.source),
          ExportNamedDeclaration: (node) => check(node, node.source),
          ExportAllDeclaration: (node) => check(node, node.source),
          ImportExpression: (node) => check(node, node.source),
        };
      },
    ),

    "money-in-money": rule((p) => isProduct(p) && p !== MONEY, (context) => {
      const report = (node: Node, name: string) =>
        context.report({
          node,
          message:
            `Arithmetic on the amount \`${name}\`: price arithmetic lives only in ${MONEY} ` +
            "(integer micros, exact cents): call its conversions (centsToMicros, microsToCents, " +
            "sumCents, withPlatformFee...) and write amounts with formatUsd() on pages.",
        });
      return {
        BinaryExpression(node) {
          if (!ARITHMETIC.has(node.operator)) return;
          // "+" next to text joins strings, it does not add money.
          if (node.operator === "+" && (isText(node.left) || isText(node.right))) return;
          const name = moneyName(node.left) ?? moneyName(node.right);
          if (name) report(node, name);
        },
        AssignmentExpression(node) {
          const op = node.operator.slice(0, -1);
          const name = ARITHMETIC.has(op) ? moneyName(node.left) ?? moneyName(node.right) : null;
          if (name) report(node, name);
        },
        CallExpression(node) {
          const callee = node.callee;
          if (
            callee.type !== "MemberExpression" || !isMember(callee, "Math") ||
            callee.property.type !== "Identifier" || !ROUNDING.has(callee.property.name)
          ) return;
          const name = node.arguments.map(moneyName).find((n) => n !== null);
          if (name) report(node, name);
        },
      };
    }),

    "no-root-wildcard-use": rule((p) => p === "server/app.ts", (context) => ({
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type !== "MemberExpression" || callee.property.type !== "Identifier" ||
          callee.property.name !== "use"
        ) return;
        const [first] = node.arguments;
        const path = first ? textOf(first) : null;
        const wildcard = path === null || path === "*" || path === "/*";
        const requestId = node.arguments.length === 1 && first.type === "CallExpression" &&
          first.callee.type === "Identifier" && first.callee.name === "requestId";
        if (wildcard && !requestId) {
          context.report({
            node,
            message: "A wildcard use() on the root app runs on every route of every surface: " +
              "attach the middleware to the sub-app that needs it, mounted by its prefix " +
              "(only the request id is global).",
          });
        }
      },
    })),

    "mod-reexports-only": rule((p) => /(^|\/)mod\.ts$/.test(p), (context) => ({
      Program(node) {
        for (const statement of node.body) {
          const reexport = (statement.type === "ExportNamedDeclaration" && statement.source) ||
            statement.type === "ExportAllDeclaration";
          if (!reexport) {
            context.report({
              node: statement,
              message: "mod.ts only re-exports (export ... from): put code with behaviour in a " +
                "named file (routes.ts for routes) and re-export it here.",
            });
          }
        }
      },
    })),
  },
};

export default plugin;
