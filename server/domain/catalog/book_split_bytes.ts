/**
 * A markdown book's chapters read from its bytes one chapter at a time: the same chapters as
 * `splitMarkdown()` (book_split.ts) on the whole decoded text, without ever holding that text
 * (a 10 MB book with curly quotes decodes to a 20 MB string) or every chapter's body at once.
 * Only lines that start with `#` can be headings, so only those are decoded to find the chapter
 * level and boundaries; each chapter's bytes are then decoded and converted on their own.
 */
import { eventLoopTurns } from "../../../store/turns.ts";
import {
  type Chapter,
  FRONT_MATTER_WORDS,
  headingLevels,
  markdownBody,
  words,
} from "./book_split.ts";

/** Chapters by title, and their bodies made again on demand, in order. */
export interface ChapterSource {
  titles: string[];
  chapters(): Generator<Chapter>;
}

const HASH = 0x23;
const CR = 13;
const LF = 10;

/**
 * The chapters of a markdown book, or null when it has no repeated heading level or no chapter
 * with text (the caller then splits the whole text, as `splitMarkdown()` falls back). Throws a
 * TypeError when the bytes are not UTF-8: every byte is decoded once here, before any chapter
 * is handed out.
 */
export async function markdownChapters(
  bytes: Uint8Array,
  turn: () => Promise<void> = eventLoopTurns(),
): Promise<ChapterSource | null> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const decode = (from: number, to: number) => decoder.decode(bytes.subarray(from, to));
  const start = afterBoms(bytes);
  // Heading candidates: [start of line, end of its text, start of the next line].
  const lines: { from: number; end: number; next: number; text: string }[] = [];
  for (let at = start, n = 0; at < bytes.length; n++) {
    if (n % 4096 === 0) await turn();
    const end = lineEnd(bytes, at);
    const next = end < bytes.length && bytes[end] === CR && bytes[end + 1] === LF
      ? end + 2
      : end + 1;
    if (bytes[at] === HASH) lines.push({ from: at, end, next, text: decode(at, end) });
    at = next;
  }
  const { level, headingOf } = headingLevels(lines.map((l) => l.text));
  if (level === 0) return null;
  const marks = lines.flatMap((l) => {
    const title = headingOf(l.text);
    return title === null ? [] : [{ ...l, title }];
  });
  // Units: the text before the first heading, then each heading's text up to the next one.
  const units = [{ title: null as string | null, from: start, to: marks[0]?.from ?? bytes.length }];
  marks.forEach((m, i) =>
    units.push({ title: m.title, from: m.next, to: marks[i + 1]?.from ?? bytes.length })
  );
  const bodyOf = (u: { from: number; to: number }) => {
    // The range's last line break belongs to the heading line after it.
    let to = u.to;
    if (to > u.from && to < bytes.length && bytes[to - 1] === LF) to--;
    if (to > u.from && to < bytes.length && bytes[to - 1] === CR) to--;
    return markdownBody(decode(u.from, Math.max(u.from, to)).replace(/\r\n?/g, "\n").split("\n"));
  };
  // Every unit is converted once to see whether it has text: 10 MB of it is 100 ms and more of
  // the serving thread, so requests get their turns between units (issue 39).
  const kept: { title: string; from: number; to: number }[] = [];
  for (const u of units) {
    await turn();
    const body = bodyOf(u);
    // A heading followed by nothing (a table of contents entry) is not a chapter.
    const text = u.title === null ? words(body) >= FRONT_MATTER_WORDS : body.trim() !== "";
    if (text) kept.push({ ...u, title: u.title ?? "Front matter" });
  }
  if (kept.length === 0) return null;
  return {
    titles: kept.map((u) => u.title),
    *chapters() {
      for (const u of kept) yield { title: u.title, body: bodyOf(u) };
    },
  };
}

/** Where the text starts: the decoder and `splitMarkdown()` each drop one leading BOM. */
function afterBoms(bytes: Uint8Array): number {
  let at = 0;
  for (
    let i = 0;
    i < 2 && bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;
    i++
  ) {
    at += 3;
  }
  return at;
}

/** The index of the CR or LF that ends the line starting at `from`, or the length. */
function lineEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === LF || bytes[i] === CR) return i;
  return bytes.length;
}
