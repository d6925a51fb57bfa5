/**
 * Cheap checks of a PDF's bytes before pdf.js reads it (pdf_reader.ts): what the file claims, how
 * its page tree is wired, and what its compressed streams inflate to. They see only objects
 * outside object streams; pdf_text.ts's time and memory limits stop what they miss.
 */
import { createInflate } from "node:zlib";

/** Why the PDF is refused before it is parsed, or null when it passes. */
export async function precheck(
  bytes: Uint8Array,
  limits: { maxPages: number; maxInflated: number },
): Promise<string | null> {
  const text = new TextDecoder("latin1").decode(bytes);
  const declared = declaredPages(text);
  if (declared > limits.maxPages) {
    return `it declares ${declared} pages; the limit is ${limits.maxPages}`;
  }
  const trap = pageTreeTrap(text, limits.maxPages);
  if (trap) return trap;
  if (await inflatedSize(bytes, text, limits.maxInflated) > limits.maxInflated) {
    return `its compressed streams inflate past ${limits.maxInflated / 1024 / 1024} MB`;
  }
  return null;
}

/** The largest /Count of an uncompressed page tree node: what the file claims to hold. */
export function declaredPages(text: string): number {
  let max = 0;
  for (const m of text.matchAll(/\/Type\s*\/Pages\b[^>]{0,2000}?\/Count\s+(\d{1,12})/g)) {
    max = Math.max(max, Number(m[1]));
  }
  for (const m of text.matchAll(/\/Count\s+(\d{1,12})[^>]{0,2000}?\/Type\s*\/Pages\b/g)) {
    max = Math.max(max, Number(m[1]));
  }
  return max;
}

/** Levels of Pages nodes a page tree may have; writers balance theirs, about ten levels deep. */
export const MAX_TREE_DEPTH = 100;

/**
 * A page tree that multiplies pages, runs in a circle or sinks without end, walked from the last
 * catalog's /Pages. In a well-formed tree every node has one parent (ISO 32000-1 section 7.7.3),
 * so an object reached twice is a page read over and over (a 19 KB file listed one 4 MB page 2000
 * times). Pages are counted by the kids actually listed. A node defined again by an incremental
 * update counts as its last definition; nodes the walk does not reach (left by an update) and
 * nodes in object streams, which it cannot see, are passed over.
 */
export function pageTreeTrap(text: string, maxPages: number): string | null {
  const root = lastCatalogPages(text);
  if (!root) return null;
  const kidsOf = new Map<string, string[]>();
  for (const m of text.matchAll(/\/Type\s*\/Pages\b/g)) {
    const body = objectAround(text, m.index);
    if (!body) continue;
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(body.text)?.[1] ?? "";
    kidsOf.set(body.ref, [...kids.matchAll(/(\d+)\s+(\d+)\s+R\b/g)].map((r) => `${r[1]} ${r[2]}`));
  }
  if (!kidsOf.has(root)) return null;
  type Frame = { node: string; depth: number; up: Frame | null };
  const stack: Frame[] = [{ node: root, depth: 1, up: null }];
  const reached = new Set([root]);
  let pages = 0;
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at.depth > MAX_TREE_DEPTH) {
      return `its page tree is more than ${MAX_TREE_DEPTH} levels deep`;
    }
    for (const kid of kidsOf.get(at.node)!) {
      for (let up: Frame | null = at; up; up = up.up) {
        if (up.node === kid) return "its page tree runs in a circle";
      }
      if (reached.has(kid)) {
        let times = 0;
        for (const kids of kidsOf.values()) for (const k of kids) if (k === kid) times++;
        return `its page tree lists object ${kid.split(" ")[0]} ${times} times; ` +
          "each page may appear once";
      }
      reached.add(kid);
      if (kidsOf.has(kid)) stack.push({ node: kid, depth: at.depth + 1, up: at });
      else pages++;
    }
  }
  return pages > maxPages ? `its page tree lists ${pages} pages; the limit is ${maxPages}` : null;
}

/** The reference (`"2 0"`) of the root Pages node named by the file's last catalog. */
function lastCatalogPages(text: string): string | null {
  const catalogs = [...text.matchAll(/\/Type\s*\/Catalog\b/g)];
  for (const m of catalogs.reverse()) {
    const body = objectAround(text, m.index);
    const pages = body && /\/Pages\s+(\d+)\s+(\d+)\s+R\b/.exec(body.text);
    if (pages) return `${pages[1]} ${pages[2]}`;
  }
  return null;
}

/** The uncompressed object whose body holds `index`: its reference and its text. */
function objectAround(text: string, index: number): { ref: string; text: string } | null {
  const start = text.lastIndexOf("obj", index);
  if (start < 0) return null;
  const header = /(\d+)\s+(\d+)\s+$/.exec(text.slice(Math.max(0, start - 24), start));
  if (!header) return null;
  let end = text.indexOf("endobj", index);
  if (end < 0) end = text.length;
  return { ref: `${header[1]} ${header[2]}`, text: text.slice(start, end) };
}

/** Sum of the inflated sizes of the file's FlateDecode streams, stopping once past `max`. */
export async function inflatedSize(bytes: Uint8Array, text: string, max: number): Promise<number> {
  const re = /\/FlateDecode[\s\S]{0,400}?>>\s*stream\r?\n/g;
  let total = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    total += await inflateCapped(bytes.subarray(start, end), max - total);
    if (total > max) return total;
    re.lastIndex = end;
  }
  return total;
}

/**
 * Inflated size of one stream, counted as it inflates and abandoned past `budget`. (Web
 * DecompressionStream in Deno 2.9 fails on high-ratio input instead of streaming it.)
 */
function inflateCapped(data: Uint8Array, budget: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let n = 0;
    inflate.on("data", (chunk: Uint8Array) => {
      n += chunk.length;
      if (n > budget) {
        inflate.destroy();
        resolve(n);
      }
    });
    inflate.on("end", () => resolve(n));
    // A corrupt stream counts what came out before the error; pdf.js copes with the rest.
    inflate.on("error", () => resolve(n));
    inflate.end(data);
  });
}
