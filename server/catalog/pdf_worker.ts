/**
 * PDF text extraction inside a Worker (see pdf_text.ts): the main thread can terminate it on a
 * wall-clock limit, so a hostile PDF never hangs the server. Only text is read: scripts, embedded
 * files and actions in the PDF are never executed (docs/TEST-PLAN.md section 4, case 28).
 */
/// <reference lib="deno.worker" />
import { createInflate } from "node:zlib";
import { getDocumentProxy } from "unpdf";

/** What the main thread sends. */
export interface PdfRequest {
  bytes: Uint8Array;
  maxPages: number;
  /** Total bytes all Flate streams may inflate to (a decompression bomb stops here). */
  maxInflated: number;
}

/** What the worker answers. */
export type PdfResponse =
  | { ok: true; pages: string[]; outline: { title: string; page: number }[] }
  | { ok: false; error: string };

self.onmessage = async (e: MessageEvent<PdfRequest>) => {
  let reply: PdfResponse;
  try {
    reply = await extract(e.data);
  } catch (err) {
    reply = { ok: false, error: `the PDF could not be read (${describe(err)})` };
  }
  self.postMessage(reply);
};

async function extract(req: PdfRequest): Promise<PdfResponse> {
  const declared = declaredPages(req.bytes);
  if (declared > req.maxPages) {
    return { ok: false, error: `it declares ${declared} pages; the limit is ${req.maxPages}` };
  }
  const inflated = await inflatedSize(req.bytes, req.maxInflated);
  if (inflated > req.maxInflated) {
    return {
      ok: false,
      error: `its compressed streams inflate past ${req.maxInflated / 1024 / 1024} MB`,
    };
  }
  const doc = await getDocumentProxy(new Uint8Array(req.bytes), {
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    if (doc.numPages > req.maxPages) {
      return { ok: false, error: `it has ${doc.numPages} pages; the limit is ${req.maxPages}` };
    }
    const pages: string[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str;
        if (item.hasEOL) text += "\n";
      }
      pages.push(text);
      page.cleanup();
    }
    return { ok: true, pages, outline: await outline(doc) };
  } finally {
    // The worker is terminated after each document, which frees everything pdf.js holds.
    await doc.cleanup().catch(() => {});
  }
}

type Doc = Awaited<ReturnType<typeof getDocumentProxy>>;

async function outline(doc: Doc): Promise<{ title: string; page: number }[]> {
  const items = (await doc.getOutline().catch(() => null)) ?? [];
  const out: { title: string; page: number }[] = [];
  for (const item of items.slice(0, 1000)) {
    try {
      const dest = typeof item.dest === "string" ? await doc.getDestination(item.dest) : item.dest;
      const ref = Array.isArray(dest) ? dest[0] : null;
      if (ref === null || ref === undefined) continue;
      const page = typeof ref === "number" ? ref : await doc.getPageIndex(ref);
      out.push({ title: item.title, page });
    } catch {
      // An outline entry pointing nowhere is skipped; the rest still splits the book.
    }
  }
  return out;
}

/** Sum of the inflated sizes of the file's FlateDecode streams, stopping once past `max`. */
async function inflatedSize(bytes: Uint8Array, max: number): Promise<number> {
  const text = new TextDecoder("latin1").decode(bytes);
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

/** The largest /Count of an uncompressed page tree node: what the file claims to hold. */
function declaredPages(bytes: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(bytes);
  let max = 0;
  for (const m of text.matchAll(/\/Type\s*\/Pages\b[^>]{0,2000}?\/Count\s+(\d{1,12})/g)) {
    max = Math.max(max, Number(m[1]));
  }
  for (const m of text.matchAll(/\/Count\s+(\d{1,12})[^>]{0,2000}?\/Type\s*\/Pages\b/g)) {
    max = Math.max(max, Number(m[1]));
  }
  return max;
}

function describe(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.slice(0, 200);
}
