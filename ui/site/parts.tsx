/** Pieces the publisher's pages share: article lists, bylines, access labels, paging. */
import type { ComponentChildren } from "preact";
import { longDate, pageHref, safeHref } from "./brand.ts";
import type { ArticleCard, Paging } from "./types.ts";

/** What an AI agent may do with an article, in words (not only color). */
const ACCESS_LABEL: Record<ArticleCard["policy"], string> = {
  OBSERVE: "Open to AI",
  PAYWALL: "Licensed for AI",
  BLOCKED: "Not for AI",
};

/** A date in a `<time>` element, or nothing when there is no usable date. */
export function When(props: { iso: string | null }) {
  const text = longDate(props.iso);
  return text ? <time dateTime={new Date(props.iso!).toISOString()}>{text}</time> : null;
}

/** The link of a topic page on a site whose links start with `base` (SiteBrand.base). */
export function topicHref(base: string, tag: string): string {
  return `${base}/topics/${encodeURIComponent(tag)}`;
}

/** The small label of an article's AI access policy. */
export function AccessLabel(props: { policy: ArticleCard["policy"] }) {
  const label = ACCESS_LABEL[props.policy];
  return label ? <span class={`access ${props.policy}`}>{label}</span> : null;
}

/** A list of articles; the first may lead larger. Headings start at `level`. */
export function ArticleList(
  props: {
    articles: ArticleCard[];
    /** SiteBrand.base: the prefix of the site's links. */
    base: string;
    lead?: boolean;
    level?: 2 | 3;
    label: string;
  },
) {
  const H = props.level === 3 ? "h3" : "h2";
  return (
    <ol class="stories" aria-label={props.label}>
      {props.articles.map((a, i) => (
        <li key={`${a.path}-${i}`} class={props.lead && i === 0 ? "story lead" : "story"}>
          <article>
            {a.kind === "chapter"
              ? <span class="eyebrow">Chapter</span>
              : a.tags[0]
              ? <span class="eyebrow">{a.tags[0]}</span>
              : null}
            <H>
              <a href={safeHref(`${props.base}${a.path}`) ?? `${props.base}/`}>{a.title}</a>
            </H>
            {a.summary ? <p class="summary">{a.summary}</p> : null}
            <p class="meta">
              {a.author ? <span>By {a.author}</span> : null}
              <When iso={a.publishedAt} />
              <AccessLabel policy={a.policy} />
            </p>
          </article>
        </li>
      ))}
    </ol>
  );
}

/** The neighbours of a list page: Newer (rel=prev) and Older (rel=next). */
export function pagingLinks(p: Paging): { prev: string | null; next: string | null } {
  const base = safeHref(p.basePath) ?? "/";
  return {
    prev: p.page > 1 ? pageHref(base, p.page - 1) : null,
    next: p.hasNext ? pageHref(base, p.page + 1) : null,
  };
}

/** "Newer" and "Older" links, when there is more than one page. */
export function Pager(props: { paging: Paging }) {
  const { prev, next } = pagingLinks(props.paging);
  if (!prev && !next) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {prev ? <a href={prev} rel="prev">← Newer</a> : <span />}
      <span class="here">Page {props.paging.page}</span>
      {next ? <a href={next} rel="next">Older →</a> : <span />}
    </nav>
  );
}

/** What a list shows when it has nothing. */
export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p>
        <strong>{props.title}</strong>
      </p>
      {props.children}
    </div>
  );
}
