/**
 * Clutter removal before Readability, by whole words of class and id names (docs/decisions/
 * ingestion.md "Clutter by whole names"): `share-buttons` is a share box, `post-shared-changeset`
 * and a section a documentation tool named after its heading "Shared memory" are not.
 */

/**
 * Words naming boxes that are never the article's text (consent notices, sign-up and paywall
 * prompts, ads), matched as whole tokens of a class or id: removed unless they hold the article.
 */
const BOX_WORDS = new Set([
  "cookie",
  "cookies",
  "consent",
  "gdpr",
  "cmp",
  "didomi",
  "newsletter",
  "newsletters",
  "subscribe",
  "subscription",
  "subscriptions",
  "signup",
  "paywall",
  "upsell",
  "promo",
  "promos",
  "printfooter",
  "advert",
  "adverts",
  "advertisement",
  "advertising",
  "publicidad",
  "publicidade",
  "anzeige",
  "ad",
  "ads",
  "adslot",
  "navbox",
  "navframe",
  "catlinks",
  "normdaten",
  "sitesub",
  "editsection",
  "hatnote",
  "bandeau",
]);
/**
 * Words a box around the article has, but a section of it may have too ("Related work", "Share
 * of votes", "Follow-up", "Rating scales"): such a box goes only while it holds little text.
 */
const SECTION_WORDS = new Set([
  "share",
  "sharing",
  "sharebar",
  "social",
  "related",
  "recommended",
  "recommendations",
  "ranking",
  "comment",
  "comments",
  "respond",
  "feedback",
  "rating",
  "ratings",
  "poll",
  "disclosure",
  "follow",
  "toc",
  "infobox",
  "reflist",
  "references",
]);
/** Two-token names whose words alone say nothing ("sign up", "most read", "author bio"). */
const BOX_PAIRS = new Set([
  "sign up",
  "most read",
  "author bio",
  "profile box",
  "print footer",
  "print only",
  "ad slot",
]);
const CLUTTER_ROLES = /^(dialog|alertdialog|navigation|banner|contentinfo|complementary|search)$/;
/** Bounds the work on hostile pages (thousands of nested boxes each named "share"). */
const MAX_CLUTTER = 300;
/** A box holding more of the page's words than this is the story ("paywall-content"). */
const STORY_SHARE = 0.4;
/**
 * Nor is one holding most of the article element's text (a `paywall` wrapper round the body):
 * the sign-up cards these words name are at most a fifth of even a short post (18% in the Ghost
 * fixture).
 */
const ARTICLE_MAJORITY = 0.5;
/**
 * A box named with a section word that holds more than this share of the article's text is kept:
 * a share bar, follow card or list of related links is a line or a list of titles, at most 11% of
 * the article in any fixture (tests/fixtures/extraction; comment threads run larger but sit
 * outside the article element, where this guard does not apply), while one section of an article
 * of up to six sections is above it.
 */
export const KEEP_SHARE = 0.15;

/** The words of a class or id: split at non-alphanumerics and camelCase humps, lower-cased. */
export function nameTokens(name: string): string[] {
  return name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").split(/[^\p{L}\p{N}]+/u)
    .map((t) => t.toLowerCase()).filter(Boolean);
}

/**
 * What a class or id says of a box, by whole tokens: "box" (never text), "section" (clutter
 * while small) or null.
 */
export function clutterName(name: string): "box" | "section" | null {
  const t = nameTokens(name);
  if (t.some((w, i) => BOX_WORDS.has(w) || BOX_PAIRS.has(`${w} ${t[i + 1]}`))) return "box";
  return t.some((w) => SECTION_WORDS.has(w)) ? "section" : null;
}

const slug = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * Whether `el`'s id was made from its heading's words ("Related work" → `related-work`,
 * `user-content-related-work`, `related-work-2`): a section of the text, whatever words it has.
 * A single word counts only on a heading or a <section> (Sphinx, Pandoc, Quarto): in a <div> it
 * stays suspect, since a WordPress `<div id="comments"><h2>Comments</h2>` is the comments.
 */
export function headingId(el: Element): boolean {
  const id = el.getAttribute("id") ?? "";
  const words = nameTokens(id).length;
  if (words === 0 || (words === 1 && !/^(H[1-6]|SECTION)$/.test(el.tagName))) return false;
  // The section's own heading, among its first children (a deeper one belongs to a later box);
  // looking no further keeps this cheap on pages of thousands of named boxes.
  const isHeading = (e: Element) => /^H[1-6]$/.test(e.tagName);
  const heading = isHeading(el) ? el : [...el.children].slice(0, 3).find(isHeading);
  if (!heading) return false;
  const h = slug(heading.textContent ?? "");
  const s = slug(id);
  // Prefixed ids (`user-content-`, `h-`), numbered duplicates (`-2`), numbered headings ("2. …").
  return h.length > 0 &&
    (s === h || s.endsWith(h) || new RegExp(`^${h}\\d+$`).test(s) ||
      (words > 1 && h.endsWith(s) && /^\d+$/.test(h.slice(0, h.length - s.length))));
}

/** The element the article most likely is, for measuring shares: article, main or body. */
function articleRoot(doc: Document): Element | null {
  const articles = [...doc.querySelectorAll("[itemprop=articleBody], article, main")];
  return articles.sort((a, b) => size(b) - size(a))[0] ?? doc.body;
}

/** Text size in non-space characters: words would count a Japanese paragraph as one. */
function size(el: Element | null): number {
  return (el?.textContent ?? "").replace(/\s+/g, "").length;
}

/** Takes out the boxes Readability does not know, unless they hold the article. */
export function removeClutter(doc: Document): void {
  const root = articleRoot(doc);
  const total = size(root);
  const page = size(doc.body);
  const inArticle = (el: Element) => root !== null && root !== doc.body && root.contains(el);
  const story = (el: Element) =>
    /^(HTML|BODY|MAIN|ARTICLE)$/.test(el.tagName) ||
    el.querySelector("article, main, h1, [itemprop=articleBody]") !== null ||
    size(el) > page * STORY_SHARE || (inArticle(el) && size(el) > total * ARTICLE_MAJORITY);
  const section = (el: Element) =>
    story(el) || (root !== null && root.contains(el) && size(el) > total * KEEP_SHARE);
  let examined = 0;
  for (const el of [...doc.querySelectorAll("[class], [id], [role], [aria-hidden], [hidden]")]) {
    const id = headingId(el) ? "" : el.getAttribute("id") ?? "";
    const kind = clutterName(`${el.getAttribute("class") ?? ""} ${id}`);
    const box = kind === "box" || CLUTTER_ROLES.test(el.getAttribute("role") ?? "") ||
      el.getAttribute("aria-hidden") === "true" || el.hasAttribute("hidden");
    if (!box && kind !== "section") continue;
    if (++examined > MAX_CLUTTER) break;
    if (el.isConnected && !(box ? story(el) : section(el))) el.remove();
  }
  for (const el of [...doc.querySelectorAll("nav, aside, form, dialog")]) {
    if (el.isConnected && !section(el)) el.remove();
  }
}

/**
 * The words Readability 0.6.0 looks for inside class and id names (its `unlikelyCandidates` and
 * `negative` patterns), which it matches as substrings: `shared` weighs against a box as `share`.
 */
const READABILITY_WORDS =
  /banner|breadcrumbs|combx|comment|community|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|agegate|pagination|pager|popup|hidden|masthead|media|meta|outbrain|promo|scroll|share|shopping|tags|widget|contact/;

/**
 * Hands Readability whole words only: an id made from a heading is dropped, and a token that
 * merely contains one of its words (`shared`, `metadata`, `extract`) leaves the name, so
 * Readability neither drops a heading nor weighs a section down for a word it does not have.
 */
export function plainNames(doc: Document): void {
  for (const el of [...doc.querySelectorAll("[class], [id]")]) {
    if (el.hasAttribute("id")) {
      if (headingId(el)) el.removeAttribute("id");
      else el.setAttribute("id", plain(el.getAttribute("id") ?? ""));
    }
    if (el.hasAttribute("class")) el.setAttribute("class", plain(el.getAttribute("class") ?? ""));
  }
}

function plain(names: string): string {
  return names.split(/\s+/).map((name) => {
    const t = nameTokens(name);
    const kept = t.filter((w) => {
      const m = w.match(READABILITY_WORDS);
      return !m || w === m[0] || w === `${m[0]}s`;
    });
    return kept.length === t.length ? name : kept.join("-");
  }).filter(Boolean).join(" ");
}
