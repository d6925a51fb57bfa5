/** Splits an article body into passages for retrieval, each under the section heading it sits in. */

/** One passage of an article. */
export interface Chunk {
  id: string;
  n: number;
  section: string;
  text: string;
}

/** Passage size bounds in words; paragraphs are never split unless one alone exceeds the maximum. */
export const CHUNK_MIN_WORDS = 80;
export const CHUNK_MAX_WORDS = 200;
/** Passages kept per article: bounds vector memory and embedding time for very long chapters. */
export const MAX_CHUNKS_PER_ARTICLE = 64;

interface Paragraph {
  section: string;
  text: string;
  words: number;
}

/** Chunks `body` on paragraph boundaries; ids are `<articleId>#<n>` from 0. */
export function chunkArticle(
  articleId: string,
  body: string,
  options: { title?: string } = {},
): Chunk[] {
  const paragraphs = splitParagraphs(body, options.title ?? "");
  const chunks: Chunk[] = [];
  let parts: string[] = [];
  let count = 0;
  let section = "";
  const flush = () => {
    if (parts.length === 0) return;
    chunks.push({
      id: `${articleId}#${chunks.length}`,
      n: chunks.length,
      section,
      text: parts.join("\n\n"),
    });
    parts = [];
    count = 0;
  };
  for (const p of paragraphs) {
    // A new section starts a new passage once the current one is big enough to stand alone.
    const newSection = p.section !== section;
    if (
      parts.length > 0 &&
      (count + p.words > CHUNK_MAX_WORDS || (newSection && count >= CHUNK_MIN_WORDS / 2))
    ) {
      flush();
    }
    if (parts.length === 0) section = p.section;
    parts.push(p.text);
    count += p.words;
    if (count >= CHUNK_MAX_WORDS) flush();
  }
  flush();
  return chunks.slice(0, MAX_CHUNKS_PER_ARTICLE);
}

function splitParagraphs(body: string, title: string): Paragraph[] {
  const out: Paragraph[] = [];
  let section = title;
  for (const block of body.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines: string[] = [];
    for (const line of block.split("\n")) {
      const heading = /^##\s+(.*)$/.exec(line.trim());
      if (heading) {
        if (lines.length) out.push(...pieces(section, lines.join("\n")));
        lines.length = 0;
        section = heading[1].trim();
      } else if (line.trim()) lines.push(line.trim());
    }
    if (lines.length) out.push(...pieces(section, lines.join("\n")));
  }
  return out;
}

// A paragraph longer than the maximum is cut at sentence ends (or words) into near-equal pieces.
function pieces(section: string, text: string): Paragraph[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length <= CHUNK_MAX_WORDS) return [{ section, text, words: tokens.length }];
  const out: Paragraph[] = [];
  const parts = Math.ceil(tokens.length / CHUNK_MAX_WORDS);
  const target = Math.ceil(tokens.length / parts);
  let start = 0;
  while (start < tokens.length) {
    let end = Math.min(tokens.length, start + target);
    // Prefer ending on a sentence within the last quarter of the piece.
    for (let i = end; i > start + (target * 3) / 4 && end < tokens.length; i--) {
      if (/[.!?]["')\]]?$/.test(tokens[i - 1])) {
        end = i;
        break;
      }
    }
    out.push({ section, text: tokens.slice(start, end).join(" "), words: end - start });
    start = end;
  }
  return out;
}
