/**
 * What real feeds and sitemaps get wrong that a feed reader still reads (issue 41, "Onboarding
 * by site on real files"), repaired before the strict parser (saxes) sees it:
 * - a bare `&` ("Q&A", `?a=1&b=2` in a link): saxes reads an entity name up to the next `;` and
 *   so swallows every tag in between; it is written `&amp;`, as the publisher meant it;
 * - HTML's named entities (`&nbsp;`, `&eacute;`, `&rsquo;`): RSS 0.91's DTD declares them and
 *   feeds use them without it; they resolve to their characters (`HTML_ENTITIES`).
 * Anything else an entity could name (one declared in a DTD, the billion laughs, an external
 * entity) stays undefined, a fault: nothing here expands a document's own declarations.
 */
import { decodeHTMLStrict } from "entities";

/**
 * The XML entities, then any HTML5 named entity, for saxes's `ENTITIES` lookup: the five are the
 * object's own (a sitemap's `&amp;` never reaches the proxy), the rest are asked of `entities`.
 */
export const HTML_ENTITIES: Record<string, string> = Object.assign(
  Object.create(
    new Proxy({}, {
      get(_, name) {
        // Entity names are short; a long one is no HTML entity (and not worth a decode).
        if (typeof name !== "string" || name.length > 32 || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
          return undefined;
        }
        const ref = `&${name};`;
        const text = decodeHTMLStrict(ref);
        return text === ref ? undefined : text;
      },
    }),
  ),
  { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" },
);

/** A reference's longest plausible length after its `&`: the longest HTML5 name is 31. */
const LOOKAHEAD = 40;
/** `&` that starts a reference (a name, or a decimal or hex character number, then `;`). */
const REFERENCE = /^(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);/;
/** Where the next thing the repair must look at is: a `&`, or markup that changes the rules. */
const NEXT = /[&]|<!\[CDATA\[|<!--/g;

/**
 * Rewrites bare ampersands as `&amp;` in XML text arriving in pieces, leaving CDATA sections and
 * comments (where `&` is literal) as they are. Holds back at most `LOOKAHEAD` characters of a
 * piece, so a reference or a section's opening split between pieces is judged whole.
 */
export class BareAmpersands {
  #carry = "";
  /** Inside a CDATA section or comment: the text that ends it. */
  #until: string | null = null;

  /** The repaired text of `piece` that can be judged now. */
  push(piece: string): string {
    return this.#repair(this.#carry + piece, false);
  }

  /** The rest, at the end of the document. */
  end(): string {
    return this.#repair(this.#carry, true);
  }

  #repair(text: string, final: boolean): string {
    // Everything before `limit` is judged with a full lookahead after it.
    const limit = final ? text.length : Math.max(0, text.length - LOOKAHEAD);
    let out = "";
    let i = 0;
    while (i < limit) {
      if (this.#until !== null) {
        const close = text.indexOf(this.#until, i);
        if (close === -1 || close >= limit) {
          // The end marker may straddle `limit`: keep the unjudged tail for the next piece.
          out += text.slice(i, limit);
          i = limit;
          break;
        }
        const after = close + this.#until.length;
        out += text.slice(i, after);
        i = after;
        this.#until = null;
        continue;
      }
      NEXT.lastIndex = i;
      const m = NEXT.exec(text);
      if (m === null || m.index >= limit) {
        out += text.slice(i, limit);
        i = limit;
        break;
      }
      out += text.slice(i, m.index);
      if (m[0] === "&") {
        out += REFERENCE.test(text.slice(m.index + 1, m.index + 1 + LOOKAHEAD)) ? "&" : "&amp;";
        i = m.index + 1;
      } else {
        this.#until = m[0] === "<!--" ? "-->" : "]]>";
        out += m[0];
        i = m.index + m[0].length;
      }
    }
    this.#carry = text.slice(i);
    return out;
  }
}
