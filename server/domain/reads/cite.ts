/**
 * The citation of one article or book chapter of a publisher (the `cite_article` tool and prompt):
 * its public URL (articleSummary: a chapter's page on the publisher's site, never its stored
 * `book:` key) and, for a chapter, its book as the container (server/domain/reads/citation.ts).
 */
import type { Client } from "@libsql/client";
import type { Article } from "../../../store/articles.ts";
import { getBook } from "../../../store/books.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { type CitationStyle, formatCitation } from "./citation.ts";
import { articleSummary } from "./present.ts";

/** `article` of `publisher` cited in `style`. */
export async function citeArticle(
  db: Client,
  publisher: Publisher,
  article: Article,
  style: CitationStyle,
): Promise<string> {
  const book = article.kind === "chapter" && article.bookId
    ? await getBook(db, publisher.id, article.bookId)
    : null;
  // A chapter is stored as "<book>: <chapter>" (books.ts); the book is cited as its container.
  const title = book && article.title.startsWith(`${book.title}: `)
    ? article.title.slice(book.title.length + 2)
    : article.title;
  return formatCitation(style, {
    author: article.author,
    title,
    site: publisher.name,
    publishedAt: article.publishedAt,
    url: articleSummary(article).url,
    ...(book ? { book: book.title } : {}),
  });
}
