/**
 * Splitting a book into chapter-level units (docs/SPEC.md "What the service does" 6): markdown by its
 * `#`/`##` headings, plain text by "Chapter N" / "CHAPTER IV" / "Part One" lines, a PDF by its
 * outline when it has one. Chapter bodies keep inner headings as "## " lines for the chunker.
 */

/** One chapter-level unit of a book. */
export interface Chapter {
  title: string;
  body: string;
}

/** Text before the first heading becomes its own unit only when it is this long (a preface). */
export const FRONT_MATTER_WORDS = 40;
/** A book with no headings at all is cut at paragraph boundaries into parts about this long. */
const PART_WORDS = 6000;
const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|" +
  "sixteen|seventeen|eighteen|nineteen|twenty|first|second|third|fourth|fifth|sixth|seventh|" +
  "eighth|ninth|tenth|last|final";
const CHAPTER_LINE = new RegExp(
  `^(?:chapter|part|book)\\s+(?:\\d{1,3}|[ivxlcdm]{1,8}|${NUMBER_WORDS})\\b[.:\\-\\u2013\\u2014 ]*.{0,100}$`,
  "i",
);

/** A heading line of depth 1-3 (a fourth `#` or no text after the marks is not one). */
const HEADING_DEPTH = /^(#{1,3})\s+\S/;

/** Chapters of a markdown book: the shallowest heading level that occurs more than once. */
export function splitMarkdown(text: string, bookTitle: string): Chapter[] {
  const lines = normalise(text).split("\n");
  const { level, headingOf } = headingLevels(lines);
  if (level === 0) return splitByWords(markdownBody(lines), bookTitle);
  return splitLines(lines, { bookTitle, headingOf, bodyOf: markdownBody });
}

/**
 * The chapter level of a markdown book's heading lines (other lines may be left out): the
 * shallowest of `#`, `##`, `###` that occurs more than once, or 0; and the title of a line
 * that is a heading at that level (null for any other line).
 */
export function headingLevels(
  lines: string[],
): { level: number; headingOf: (line: string) => string | null } {
  const levels = [0, 0, 0];
  for (const l of lines) {
    const depth = HEADING_DEPTH.exec(l)?.[1].length;
    if (depth) levels[depth - 1]++;
  }
  const level = levels.findIndex((count) => count > 1) + 1;
  const heading = new RegExp(`^#{${level}}\\s+(.*?)\\s*#*\\s*$`);
  return { level, headingOf: (l) => (level ? heading.exec(l)?.[1]?.trim() : null) || null };
}

/** Chapters of a plain-text book by its chapter and part heading lines. */
export function splitPlainText(text: string, bookTitle: string): Chapter[] {
  const lines = normalise(text).split("\n");
  const count = lines.filter((l) => CHAPTER_LINE.test(l.trim())).length;
  if (count === 0) return splitByWords(paragraphs(lines), bookTitle);
  return splitLines(lines, {
    bookTitle,
    headingOf: (l) => CHAPTER_LINE.test(l.trim()) ? l.trim().replace(/\s+/g, " ") : null,
    bodyOf: paragraphs,
  });
}

/** Chapters of a PDF from its pages and top-level outline entries (0-based page indexes). */
export function splitPdf(
  pages: string[],
  outline: { title: string; page: number }[],
  bookTitle: string,
): Chapter[] {
  const marks = outline
    .filter((o) => o.page >= 0 && o.page < pages.length && o.title.trim())
    .sort((a, b) => a.page - b.page);
  if (marks.length >= 2) {
    const out: Chapter[] = [];
    const front = pages.slice(0, marks[0].page).join("\n\n");
    if (words(front) >= FRONT_MATTER_WORDS) {
      out.push({ title: "Front matter", body: paragraphs(front.split("\n")) });
    }
    marks.forEach((m, i) => {
      const end = i + 1 < marks.length ? Math.max(marks[i + 1].page, m.page + 1) : pages.length;
      const body = paragraphs(pages.slice(m.page, end).join("\n\n").split("\n"));
      if (body) out.push({ title: m.title.trim().replace(/\s+/g, " "), body });
    });
    if (out.length) return out;
  }
  return splitPlainText(pages.join("\n\n"), bookTitle);
}

function splitLines(
  lines: string[],
  o: {
    bookTitle: string;
    headingOf: (line: string) => string | null;
    bodyOf: (lines: string[]) => string;
  },
): Chapter[] {
  const out: Chapter[] = [];
  let title: string | null = null;
  let buf: string[] = [];
  const flush = () => {
    const body = o.bodyOf(buf);
    if (title !== null) out.push({ title, body });
    else if (words(body) >= FRONT_MATTER_WORDS) out.push({ title: "Front matter", body });
    buf = [];
  };
  for (const line of lines) {
    const h = o.headingOf(line);
    if (h === null) {
      buf.push(line);
      continue;
    }
    flush();
    title = own(h);
  }
  flush();
  // A heading followed by nothing (a table of contents entry) is not a chapter.
  const real = out.filter((c) => c.body.trim());
  return real.length ? real : splitByWords(o.bodyOf(lines), o.bookTitle);
}

function splitByWords(body: string, bookTitle: string): Chapter[] {
  const blocks = body.split("\n\n").filter((b) => b.trim());
  if (blocks.length === 0) return [];
  const parts: string[][] = [[]];
  let count = 0;
  for (const b of blocks) {
    if (count >= PART_WORDS && !b.startsWith("## ")) {
      parts.push([]);
      count = 0;
    }
    parts.at(-1)!.push(b);
    count += words(b);
  }
  if (parts.length === 1) return [{ title: bookTitle, body: parts[0].join("\n\n") }];
  return parts.map((p, i) => ({ title: `${bookTitle}, part ${i + 1}`, body: p.join("\n\n") }));
}

/** Markdown to chunker text: inner headings become "## " lines, markup is dropped. */
export function markdownBody(lines: string[]): string {
  const out: string[] = [];
  let para: string[] = [];
  let fence = false;
  const flush = () => {
    const t = collapse(para.join(" ")).trim();
    if (t) out.push(t);
    para = [];
  };
  for (const raw of lines) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fence = !fence;
      flush();
      continue;
    }
    const h = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (h) {
      flush();
      if (h[1].trim()) out.push(`## ${inline(h[1])}`);
    } else if (!raw.trim()) flush();
    else para.push(fence ? raw : inline(raw.replace(/^\s*(?:[-*+]|\d+\.|>+)\s+/, "")));
  }
  flush();
  return out.join("\n\n");
}

/** Inline markdown to text: links keep their words, emphasis and code marks go. */
function inline(s: string): string {
  return s
    .replace(/!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, "$1")
    .replace(/<[^>]{0,200}>/g, "")
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, "$2")
    .trim();
}

/** Lines to paragraphs: blank lines separate paragraphs, wrapped lines are joined. */
function paragraphs(lines: string[]): string {
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    const t = collapse(para.join(" ")).trim();
    if (t) out.push(t);
    para = [];
  };
  for (const l of lines) {
    if (!l.trim()) flush();
    else para.push(l.trim());
  }
  flush();
  return out.join("\n\n");
}

/**
 * A copy of a title: V8 lets a longer substring share its source's memory, so a title cut from
 * the book's text would keep all of it (20 MB for a 10 MB book) alive as long as the title.
 */
function own(s: string): string {
  return JSON.parse(JSON.stringify(s));
}

/** Whitespace runs as one space; a copy only when there is a run (a chapter is megabytes). */
function collapse(s: string): string {
  return /\s\s|[^\S ]/.test(s) ? s.replace(/\s+/g, " ") : s;
}

function normalise(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/** How many words `s` has. */
export function words(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}
