/** A book of a publisher (GET /books/:bookId): its chapters in order. */
import { longDate, safeHref } from "./brand.ts";
import { SiteFrame } from "./frame.tsx";
import { Empty, When } from "./parts.tsx";
import type { SiteBookView } from "./types.ts";
import { plural } from "../../server/platform/words.ts";

/** The book page. */
export function SiteBook(props: SiteBookView) {
  const { brand, book } = props;
  const n = props.chapters.length;
  return (
    <SiteFrame brand={brand} title={book.title} hasBooks section="books">
      <div class="article">
        <div class="page-head">
          <span class="eyebrow">Book</span>
          <h1>{book.title}</h1>
          <p>
            By {book.author} · {plural(n, "chapter")}
          </p>
          {longDate(book.createdAt)
            ? (
              <p class="meta">
                <span>
                  Added <When iso={book.createdAt} />
                </span>
              </p>
            )
            : null}
        </div>
        <h2 class="section-title">Chapters</h2>
        {n === 0 ? <Empty title="No chapters yet." /> : (
          <ol class="chapters">
            {props.chapters.map((c) => (
              <li key={c.no}>
                <span class="no">{c.no}</span>
                <a href={safeHref(c.path) ?? "/"}>{c.title}</a>
              </li>
            ))}
          </ol>
        )}
      </div>
    </SiteFrame>
  );
}
