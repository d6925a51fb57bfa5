/**
 * House rule: no value-level import cycles (ARCHITECTURE.md "House rules"). Reads the module graph
 * Deno builds from the product's entry points (`deno info --json`), keeps the value imports between
 * the repository's own files (`import type` edges are erased at run time and are free), and fails
 * naming every cycle and how to break it. Part of `deno task ok`.
 *
 *   deno run --allow-run --allow-read scripts/check_cycles.ts [entry ...]
 */

/** The product's entry points: the service and the admin CLI. */
const ENTRIES = ["main.ts", "scripts/folio.ts"];

interface Dependency {
  code?: { specifier: string };
}
interface Module {
  specifier: string;
  dependencies?: Dependency[];
}

/** Value-import edges between local files reachable from `entry`. */
async function graphOf(entry: string, root: string): Promise<Map<string, Set<string>>> {
  const out = await new Deno.Command(Deno.execPath(), {
    // The project's lockfile (deno.json has none by default: docs/decisions/operations.md).
    args: ["info", "--json", `--lock=${new URL("../deno.lock", import.meta.url).pathname}`, entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const { modules } = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: Module[] };
  const graph = new Map<string, Set<string>>();
  for (const m of modules) {
    if (!m.specifier.startsWith(root)) continue;
    const from = m.specifier.slice(root.length);
    const edges = graph.get(from) ?? new Set<string>();
    for (const d of m.dependencies ?? []) {
      const to = d.code?.specifier;
      if (to?.startsWith(root)) edges.add(to.slice(root.length));
    }
    graph.set(from, edges);
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  // Tarjan's algorithm, iterative over an explicit stack.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (start: string) => {
    const work: [string, string[]][] = [[start, [...(graph.get(start) ?? [])]]];
    indexOf.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const [node, next] = work[work.length - 1];
      const to = next.shift();
      if (to !== undefined) {
        if (!indexOf.has(to)) {
          indexOf.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push([to, [...(graph.get(to) ?? [])]]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node)!, indexOf.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === indexOf.get(node)) {
        const scc: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          scc.push(member);
        } while (member !== node);
        if (scc.length > 1 || graph.get(node)?.has(node)) found.push(scc.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return found;
}

if (import.meta.main) {
  // The repository is the working directory (deno task runs there).
  const root = new URL(`file://${Deno.cwd()}/`).href;
  const entries = Deno.args.length ? Deno.args : ENTRIES;
  const graph = new Map<string, Set<string>>();
  for (const entry of entries) {
    for (const [from, to] of await graphOf(entry, root)) {
      graph.set(from, new Set([...(graph.get(from) ?? []), ...to]));
    }
  }
  const found = cycles(graph);
  for (const scc of found) {
    console.error(
      `error[folio/no-import-cycle]: these modules import each other's values in a cycle: ${
        scc.join(", ")
      }\n  fix: move what they share into a lower module, or import it as a type (import type).`,
    );
  }
  console.log(`Checked ${graph.size} modules: ${found.length} import cycle(s)`);
  if (found.length > 0) Deno.exit(1);
}
