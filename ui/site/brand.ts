/**
 * The publisher's branding made safe to use, and the small text helpers of its pages: every value
 * that reaches CSS or a URL attribute is checked here, and anything doubtful falls back to Folio's
 * defaults.
 */
import { MONTH_NAMES as MONTHS } from "../../server/platform/local_time.ts";

/** Folio's accent when the publisher has none (or an unusable one). */
export const DEFAULT_COLOR = "#1d4ed8";
/** The font stack when the publisher has none (or an unusable one). */
export const SYSTEM_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

const HEX = /^#[0-9a-fA-F]{3,8}$/;

/**
 * A primary color as `#rrggbb`, or null: only `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (other
 * lengths match the pattern but are not CSS colors); any alpha is dropped so contrast holds.
 */
export function safeColor(color: string | null | undefined): string | null {
  if (!color || !HEX.test(color)) return null;
  const hex = color.slice(1);
  if (hex.length === 3 || hex.length === 4) {
    return `#${[...hex.slice(0, 3)].map((c) => c + c).join("")}`.toLowerCase();
  }
  if (hex.length === 6 || hex.length === 8) return `#${hex.slice(0, 6)}`.toLowerCase();
  return null;
}

const GENERIC = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-serif",
  "ui-sans-serif",
  "ui-monospace",
  "ui-rounded",
]);

/**
 * A font-family value from the publisher's font, or null: quotes are stripped, then only letters,
 * digits, spaces, commas and hyphens may remain; each family is quoted (single quotes, the page's
 * stylesheet is text Preact escapes) and the system stack follows as the fallback.
 */
export function safeFont(font: string | null | undefined): string | null {
  if (!font) return null;
  const plain = font.replace(/["'`]/g, "").trim();
  if (!plain || plain.length > 120 || !/^[A-Za-z0-9 ,-]+$/.test(plain)) return null;
  const families = plain.split(",").map((f) => f.trim().replace(/\s+/g, " ")).filter((f) =>
    /[A-Za-z]/.test(f)
  );
  if (families.length === 0) return null;
  const quoted = families.map((f) => GENERIC.has(f.toLowerCase()) ? f.toLowerCase() : `'${f}'`);
  return `${quoted.join(", ")}, ${SYSTEM_FONT}`;
}

/** An absolute http(s) URL as its normalized href, or null. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/** A link target: a path on this site ("/…", not "//…") or an absolute http(s) URL; else null. */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  if (!/^\/(?![\/\\])/.test(href)) return safeUrl(href);
  // Browsers drop tabs and line breaks from URLs ("/\t/evil.example" would become "//evil…"):
  // whitespace and control characters are percent-encoded instead.
  if (![...href].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return href;
  try {
    return encodeURI(href);
  } catch {
    return null;
  }
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two `#rrggbb` colors. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(rgb(a)), luminance(rgb(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** The page's colors from the publisher's primary color, each readable where it is used. */
export interface Palette {
  /** The brand color itself (bars, button fills). */
  brand: string;
  /** Text on the brand color: white or near-black, whichever reads better. */
  onBrand: string;
  /** Links and accents on white: the brand color, darkened until it reaches 4.5:1. */
  ink: string;
}

/** The palette of a publisher's pages. */
export function palette(primaryColor: string | null | undefined): Palette {
  const brand = safeColor(primaryColor) ?? DEFAULT_COLOR;
  const onBrand = contrast(brand, "#ffffff") >= contrast(brand, "#111827") ? "#ffffff" : "#111827";
  let ink = brand;
  const base = rgb(brand);
  for (let k = 1; contrast(ink, "#ffffff") < 4.6 && k <= 20; k++) {
    ink = hex(base.map((c) => c * (1 - k * 0.05)) as [number, number, number]);
  }
  return { brand, onBrand, ink };
}

/** An ISO date as "15 November 2026" (UTC), or null when it is missing or not a date. */
export function longDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** One block of an article's text. */
export type Block = { kind: "p" | "h2" | "h3"; text: string };

/**
 * Plain text as blocks: paragraphs are separated by blank lines (single line breaks join with a
 * space); a line starting with "#"s is a heading: the text's shallowest level is a section heading
 * (h2, under the page's h1), deeper ones subheadings (h3), and a subheading before any section
 * heading is a section heading, so levels never skip one (axe heading-order). No HTML is ever
 * interpreted: the blocks are rendered as text.
 */
export function blocks(text: string): Block[] {
  const out: Block[] = [];
  const depths = [...text.matchAll(/^\s*(#{1,6})\s+\S/gm)].map((m) => m[1].length);
  const top = Math.min(...depths);
  let sectioned = false;
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: "p", text: para.join(" ") });
    para = [];
  };
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.+)$/.exec(line);
    if (!line) flush();
    else if (heading) {
      flush();
      const kind = heading[1].length === top || !sectioned ? "h2" : "h3";
      sectioned = true;
      out.push({ kind, text: heading[2].trim() });
    } else para.push(line);
  }
  flush();
  return out;
}

/** A list page's link: page 1 is the base path itself, others add `page=N`. */
export function pageHref(basePath: string, page: number): string {
  if (page <= 1) return basePath;
  return `${basePath}${basePath.includes("?") ? "&" : "?"}page=${page}`;
}

/** JSON for a `<script type="application/ld+json">`: no `<` survives, so no `</script>` either. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
