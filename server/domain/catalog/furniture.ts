/**
 * Page furniture that sits inside the article element, where class-name clutter removal
 * (clutter.ts) does not reach it, and that Readability keeps on some pages (issue 41,
 * docs/decisions/ingestion.md "Furniture"): photo captions, lists of other stories under a "More
 * news from …" heading, comment calls, contact lines, bare file URLs, the wire-service credit
 * and publication line, sign-up, share and follow calls, advertisement labels, photo credits and
 * copyright lines. Each rule names a kind of block that is never the story's text, so a
 * section is never lost to it.
 */

/** A heading that introduces other stories, not a section of this one. */
const OTHER_STORIES =
  /^(more (news|stories|coverage|articles|headlines) (from|on|in|about)\b|more from\b|related (stories|articles|news|coverage|content|posts|reading)$|you (may|might) also (like|enjoy)|recommended( for you| stories| reading)?$|read (more|next)$|most (read|popular|viewed|shared)$|trending( now| stories)?$|top (stories|headlines)$|latest (news|stories|headlines)$|what to read next)/i;
/** An invitation to comment: "Join the conversation", "Leave a reply", "12 comments". */
const COMMENT_CALL =
  /^(join the (conversation|discussion|debate)|leave a (comment|reply)|add a comment|post a comment|have your say|share your (thoughts|views)|(show|view|read|see) (all )?\d* ?comments|\d+ comments?|comments?( \(\d+\))?|conversation guidelines)[.!:]?$/i;
/** A wire service's credit and the time the piece went out, at the top of the story. */
const CREDIT_LINE =
  /^(the associated press|associated press|reuters|agence france-presse|afp|press association|pa media|dpa|ap)\b.*\b(published|updated|posted)\b|\b(published|updated|posted)\s+(on\s+)?(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d{1,2}[/.\s]|\d{4}-)/i;
/** A telephone number: "(555) 123-4567", "+44 20 7946 0958", "1-800-555-0199". */
const PHONE = /(\+?\d{1,3}[\s.-]?)?(\(\d{2,4}\)|\d{2,4})[\s.-]\d{3,4}[\s.-]\d{3,4}\b/;
const CONTACT_WORD = /\b(call|phone|tel|telephone|contact|fax|text|whatsapp|hotline|helpline)\b/i;
/** A block that is nothing but an address: an uploads URL, an image or document link. */
const BARE_URL = /^(https?:\/\/|www\.)\S+$/i;
/**
 * Short calls and labels that are never the story's text, each with the most words it runs to:
 * a newsletter sign-up, a share or follow call (the whole block), an advertisement's label, a
 * photo credit, a copyright line (the wire services' "All rights reserved. This material may not
 * be published…").
 */
const CALLS_AND_LABELS: [RegExp, number][] = [
  [/^(sign up|subscribe)\b.{0,60}\b(newsletters?|inbox|our emails?|alerts)\b/i, 20],
  [/^(get|receive) (the latest|our|the best)\b.{0,60}\b(newsletter|inbox)\b/i, 20],
  [/^share (this|the) (article|story|page|post)( on \w+| via \w+)?[.!:]?$/i, 8],
  [/^share (on|via) (facebook|twitter|x|email|whatsapp|linkedin|reddit|bluesky)[.!]?$/i, 4],
  [
    /^follow .{1,40} on (twitter|x|facebook|instagram|linkedin|threads|bluesky|mastodon|tiktok|youtube)( (at )?@[\w.]+)?[.!]?$/i,
    10,
  ],
  [
    /^(advertisement|advert|sponsored( content)?|(story|article) continues (below|after)( this)?( advertisement| ad)?|continue reading( the main story)?( below)?)$/i,
    6,
  ],
  [
    /^(photo|photograph|image|picture|credit|image source|image caption|photo credit|illustration)\s*[:,]/i,
    12,
  ],
  [
    /^(©|\(c\)|copyright)\s*(©\s*)?\d{4}\b.*\b(all rights reserved|may not be (published|reproduced|redistributed))/i,
    40,
  ],
  [/^this material may not be published, broadcast, rewritten,? or redistributed/i, 20],
];

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * Takes out, before Readability, photo captions and the lists of other stories under a "More
 * news from …" heading. A caption is the words under a photo (`figcaption`, a `caption` box):
 * the photo is furniture for a reader of the text, and Readability keeps some of them.
 */
export function removeFurniture(doc: Document): void {
  for (
    const el of [
      ...doc.querySelectorAll(
        "figcaption, [class~=caption], [class~=wp-caption-text], [class*=caption-text]",
      ),
    ]
  ) {
    if (words(el.textContent ?? "") <= 60) el.remove();
  }
  for (const h of [...doc.querySelectorAll("h2, h3, h4, h5, h6")]) {
    if (!OTHER_STORIES.test((h.textContent ?? "").trim())) continue;
    const lists: Element[] = [];
    for (let n = h.nextElementSibling; n && linkList(n); n = n.nextElementSibling) lists.push(n);
    if (lists.length === 0) continue;
    for (const el of [h, ...lists]) el.remove();
  }
}

/** A list of links to other pages: most of its words are link text. */
function linkList(el: Element): boolean {
  const all = words(el.textContent ?? "");
  const linked = [...el.querySelectorAll("a")].reduce((n, a) => n + words(a.textContent ?? ""), 0);
  return all > 0 && linked / all >= 0.8;
}

/**
 * The body's text blocks without furniture: comment calls, contact lines, bare URLs anywhere; a
 * credit and publication line among the first blocks; a trailing "More news from …" heading
 * with the headlines under it.
 */
export function dropFurniture(blocks: string[]): string[] {
  const kept = blocks.filter((b, i) => {
    const t = b.trim();
    if (COMMENT_CALL.test(t) || BARE_URL.test(t)) return false;
    // Markdown emphasis aside ("**Advertisement**"), as a reader sees the block.
    const plain = t.replace(/^[*_]+|[*_]+$/g, "").trim();
    if (CALLS_AND_LABELS.some(([r, most]) => words(plain) <= most && r.test(plain))) return false;
    if (words(t) <= 25 && PHONE.test(t) && (CONTACT_WORD.test(t) || words(t) <= 4)) return false;
    return !(i < 6 && words(t) <= 20 && CREDIT_LINE.test(t));
  });
  // Headlines left under such a heading once the lists were flattened: short blocks to the end.
  const head = kept.findIndex((b, i) =>
    b.startsWith("## ") && OTHER_STORIES.test(b.slice(3).trim()) &&
    kept.slice(i + 1).every((x) => words(x) <= 15)
  );
  return head > 0 ? kept.slice(0, head) : kept;
}
