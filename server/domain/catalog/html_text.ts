/**
 * HTML to the body text format search/chunker.ts expects: section headings (h1-h3) as their own
 * "## " lines, paragraphs separated by blank lines, whitespace collapsed, no markup.
 */
import { parseHTML } from "linkedom";

const SKIP = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "SVG",
  "BUTTON",
  "FORM",
  "NAV",
  "ASIDE",
  "IFRAME",
  "TEMPLATE",
  "SELECT",
]);
const BLOCK = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "MAIN",
  "LI",
  "UL",
  "OL",
  "DL",
  "DT",
  "DD",
  "BLOCKQUOTE",
  "PRE",
  "FIGURE",
  "FIGCAPTION",
  "TABLE",
  "TR",
  "HEADER",
  "FOOTER",
  "H4",
  "H5",
  "H6",
  "HR",
]);
const HEADING = new Set(["H1", "H2", "H3"]);
/** Bounds the walk on hostile nesting (10,000 nested divs) without recursion limits. */
const MAX_DEPTH = 200;

/** Converts an HTML fragment to clean text with "## " headings and blank-line paragraphs. */
export function htmlToText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks: string[] = [];
  let current = "";
  const flush = () => {
    const t = current.replace(/\s+/g, " ").trim();
    if (t) blocks.push(t);
    current = "";
  };
  const walk = (node: Node, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const child of node.childNodes) {
      if (child.nodeType === 3) {
        current += child.textContent ?? "";
        continue;
      }
      if (child.nodeType !== 1) continue;
      const tag = (child as Element).tagName.toUpperCase();
      if (SKIP.has(tag)) continue;
      if (tag === "BR") {
        current += " ";
        continue;
      }
      if (HEADING.has(tag)) {
        flush();
        const h = (child.textContent ?? "").replace(/\s+/g, " ").trim();
        if (h) blocks.push(`## ${h.replace(/^#+\s*/, "")}`);
        continue;
      }
      const block = BLOCK.has(tag);
      if (block) flush();
      walk(child, depth + 1);
      if (block) flush();
      else if (tag === "TD" || tag === "TH") current += " ";
    }
  };
  walk(document.body as unknown as Node, 0);
  flush();
  // A heading with nothing under it before the next heading is kept: it still names a section.
  return blocks.join("\n\n");
}
