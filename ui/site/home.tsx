/** A publisher's front page (GET /) and topic pages (GET /topics/:tag). */
import { safeHref } from "./brand.ts";
import { SiteFrame } from "./frame.tsx";
import { ArticleList, Empty, Pager, pagingLinks, topicHref } from "./parts.tsx";
import type { SiteBrand, SiteHomeView, SiteTopicView } from "./types.ts";
import { noun, plural } from "../../server/platform/words.ts";

/** The box that tells agents where the terms are. */
function ForAgents(props: { brand: SiteBrand }) {
  const terms = safeHref(props.brand.termsUrl);
  return (
    <section class="for-agents" aria-labelledby="for-agents">
      <h2 class="section-title" id="for-agents">For AI agents</h2>
      <p>
        {props.brand.name}{" "}
        licenses its writing to AI through Folio: some pages are open, some are paid per read.
      </p>
      <p>
        {terms ? <a href={terms}>License terms</a> : null}
        {terms ? " · " : null}
        <a href={safeHref(props.brand.licenseXmlUrl) ?? "/license.xml"}>license.xml (RSL)</a>
      </p>
    </section>
  );
}

/** The front page: the latest articles, then topics and books beside them. */
export function SiteHome(props: SiteHomeView) {
  const { brand, paging } = props;
  const { prev, next } = pagingLinks(paging);
  const first = paging.page <= 1;
  return (
    <SiteFrame
      brand={brand}
      title={first ? brand.name : `Latest, page ${paging.page}`}
      description={brand.description || undefined}
      hasBooks={props.books.length > 0}
      section={first ? "latest" : null}
      prev={prev}
      next={next}
    >
      <div class="page-head">
        <h1>{first ? "Latest" : `Latest · page ${paging.page}`}</h1>
        {brand.description ? <p>{brand.description}</p> : null}
      </div>
      <div class="layout">
        <section aria-labelledby="latest">
          <h2 class="sr-only" id="latest">Latest articles</h2>
          {props.latest.length === 0
            ? (
              <Empty title={first ? "No articles yet." : "No more articles."}>
                <p>
                  {first
                    ? `${brand.name} has not published anything here yet. Come back soon.`
                    : <a href={`${props.brand.base}/`}>Back to the latest articles</a>}
                </p>
              </Empty>
            )
            : (
              <ArticleList
                base={props.brand.base}
                articles={props.latest}
                lead={first}
                level={3}
                label="Latest"
              />
            )}
          <Pager paging={paging} />
        </section>
        <aside class="side" aria-label="Topics and books">
          <section id="topics" aria-labelledby="topics-title">
            <h2 class="section-title" id="topics-title">Topics</h2>
            {props.topics.length === 0 ? <p class="count">No topics yet.</p> : (
              <ul class="topics">
                {props.topics.map((t) => (
                  <li key={t.tag}>
                    <a href={topicHref(props.brand.base, t.tag)}>{t.tag}</a>
                    <span class="count">
                      {t.count} <span class="sr-only">{noun(t.count, "article")}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {props.books.length > 0
            ? (
              <section id="books" aria-labelledby="books-title">
                <h2 class="section-title" id="books-title">Books</h2>
                <ul class="books">
                  {props.books.map((b) => (
                    <li key={b.id}>
                      <a href={`${props.brand.base}/books/${encodeURIComponent(b.id)}`}>
                        {b.title}
                      </a>
                      <span>
                        {b.author} · {plural(b.chapters, "chapter")}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            )
            : null}
          <ForAgents brand={brand} />
        </aside>
      </div>
    </SiteFrame>
  );
}

/** The articles of one topic. */
export function SiteTopic(props: SiteTopicView) {
  const { brand, paging } = props;
  const { prev, next } = pagingLinks(paging);
  const first = paging.page <= 1;
  return (
    <SiteFrame
      brand={brand}
      title={first ? `Topic: ${props.tag}` : `Topic: ${props.tag}, page ${paging.page}`}
      section="topics"
      prev={prev}
      next={next}
    >
      <div class="page-head">
        <span class="eyebrow">Topic</span>
        <h1>{props.tag}</h1>
        <p>
          Articles from {brand.name} about {props.tag}
          {first ? "." : `, page ${paging.page}.`}
        </p>
      </div>
      <div class="layout">
        <section aria-label={`Articles about ${props.tag}`}>
          {props.articles.length === 0
            ? (
              <Empty title={`No articles about ${props.tag} yet.`}>
                <p>
                  <a href={`${props.brand.base}/`}>See the latest articles</a> or{" "}
                  <a href={`${props.brand.base}/#topics`}>other topics</a>.
                </p>
              </Empty>
            )
            : (
              <ArticleList
                base={props.brand.base}
                articles={props.articles}
                level={2}
                label={props.tag}
              />
            )}
          <Pager paging={paging} />
        </section>
        <aside class="side" aria-label="About these pages">
          <ForAgents brand={brand} />
        </aside>
      </div>
    </SiteFrame>
  );
}
