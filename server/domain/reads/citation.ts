/**
 * Citations of an article or a book chapter in MLA 9, APA 7 and Chicago 17 (notes-bibliography,
 * bibliography entry), for the `cite_article` tool and prompt (docs/SPEC.md "MCP server"). Plain
 * text: italics cannot be carried, and titles are printed as published (their case unchanged:
 * without the language of a title, title case or sentence case would mangle names and other
 * languages). Dates are the UTC calendar date of `publishedAt`.
 */
import { direct, initialled, inverted, type Name, parseAuthors } from "./citation_names.ts";
import { MONTH_NAMES as MONTHS } from "../../platform/local_time.ts";

export const CITATION_STYLES = ["apa", "mla", "chicago"] as const;
export type CitationStyle = typeof CITATION_STYLES[number];

/** What is cited: an article on a site, or a chapter of a book (`book`) the site publishes. */
export interface CitationSource {
  /** The author field as stored: one or more names ("Ann Lee, Bo Chan"), or "". */
  author: string;
  title: string;
  /** The publisher's name: the website (MLA container), the book's publisher for a chapter. */
  site: string;
  publishedAt: string | null;
  url: string;
  /** The book's title when a chapter is cited. */
  book?: string;
}

/** The citation of `src` in `style`. */
export function formatCitation(style: CitationStyle, src: CitationSource): string {
  const names = parseAuthors(src.author);
  const d = src.publishedAt ? new Date(src.publishedAt) : null;
  const date = d && !Number.isNaN(d.getTime()) ? d : null;
  // An organisation that is both author and site is named once (MLA 9 2.1.3, APA 7 §9.11).
  const selfPublished = names.length === 1 && same(text(names[0]), src.site);
  switch (style) {
    case "mla":
      return mla(src, selfPublished && "literal" in names[0] ? [] : names, date);
    case "apa":
      return apa(src, names, date, selfPublished);
    case "chicago":
      return chicago(src, selfPublished && "literal" in names[0] ? [] : names, date);
  }
}

/** MLA 9 abbreviates months of more than four letters (Sept. for September). */
const MLA_MONTHS = [
  "Jan.",
  "Feb.",
  "Mar.",
  "Apr.",
  "May",
  "June",
  "July",
  "Aug.",
  "Sept.",
  "Oct.",
  "Nov.",
  "Dec.",
];

/** MLA 9 (5.x, "Works Cited"): Lee, Ann, and Bo Chan. “Title.” Site, 5 Mar. 2024, site.example/a. */
function mla(src: CitationSource, names: Name[], date: Date | null): string {
  const authors = names.length === 0
    ? ""
    : names.length === 1
    ? inverted(names[0])
    : names.length === 2
    ? `${inverted(names[0])}, and ${direct(names[1])}`
    : `${inverted(names[0])}, et al`;
  const when = date
    ? `${date.getUTCDate()} ${MLA_MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
    : "";
  const container = src.book ? [src.book, src.site] : [src.site];
  const rest = [...container, when, src.url.replace(/^https?:\/\//, "")].filter(Boolean);
  return `${authors ? `${sentence(authors)} ` : ""}${quoted(src.title)} ${
    sentence(rest.join(", "))
  }`;
}

/** APA 7 (§9.8, §10.16): Lee, A., & Chan, B. (2024, March 5). Title. Site. https://… */
function apa(src: CitationSource, names: Name[], date: Date | null, self: boolean): string {
  const list = names.map(initialled);
  const authors = list.length === 0
    ? src.site
    : list.length === 1
    ? list[0]
    : list.length <= 20
    ? `${list.slice(0, -1).join(", ")}, & ${list[list.length - 1]}`
    : `${list.slice(0, 19).join(", ")}, . . . ${list[list.length - 1]}`;
  const when = date
    ? `(${date.getUTCFullYear()}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}).`
    : "(n.d.).";
  const parts = [sentence(authors), when, sentence(src.title)];
  if (src.book) parts.push(sentence(`In ${src.book}`));
  // The site is named once: not again when it is the author.
  if (names.length > 0 && !self) parts.push(sentence(src.site));
  return `${parts.join(" ")} ${src.url}`;
}

/** Chicago 17 bibliography (14.206, 14.191): Lee, Ann, and Bo Chan. “Title.” Site, March 5, 2024. URL. */
function chicago(src: CitationSource, names: Name[], date: Date | null): string {
  const shown = names.length > 10 ? names.slice(0, 7) : names;
  const authors = shown.length === 0
    ? ""
    : shown.length === 1
    ? inverted(shown[0])
    : names.length > 10
    ? `${[inverted(shown[0]), ...shown.slice(1).map(direct)].join(", ")}, et al`
    : `${[inverted(shown[0]), ...shown.slice(1, -1).map(direct)].join(", ")}, and ${
      direct(shown[shown.length - 1])
    }`;
  const when = date
    ? `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
    : "";
  const source = src.book
    ? `In ${src.book}. ${
      [src.site, when ? String(date!.getUTCFullYear()) : ""].filter(Boolean).join(", ")
    }`
    : [src.site, when].filter(Boolean).join(", ");
  return `${authors ? `${sentence(authors)} ` : ""}${quoted(src.title)} ${sentence(source)} ${
    sentence(src.url)
  }`;
}

/**
 * A title in quotation marks with the period inside, none after a ? or ! that ends it. Quotation
 * marks within it become single ones (MLA 9 6.32, Chicago 17 13.30), and a period at its end goes
 * inside them too: “The ‘Big One.’”
 */
function quoted(title: string): string {
  const t = title.trim().replace(/"([^"]*)"/g, "‘$1’").replace(/“([^”]*)”/g, "‘$1’");
  return `“${sentence(t)}”`;
}

/**
 * `s` ended by a period, unless it ends with one already (or with ? or !); a closing quotation
 * mark keeps the period inside it (APA 7 §6.9).
 */
function sentence(s: string): string {
  const t = s.trim();
  // Only a mark that closes a quotation: the ’ of "the Smiths’" is an apostrophe.
  const close = /^(.*?)(["”]|(?<=‘.*)’)$/s.exec(t);
  const [body, mark] = close ? [close[1], close[2]] : [t, ""];
  return /[.?!]$/.test(body) ? t : `${body}.${mark}`;
}

function text(n: Name): string {
  return "literal" in n ? n.literal : `${n.given} ${n.family}`;
}

function same(a: string, b: string): boolean {
  const key = (s: string) => s.toLowerCase().replace(/[\s\p{P}]+/gu, "");
  return key(a) !== "" && key(a) === key(b);
}
