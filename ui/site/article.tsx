/**
 * An article or chapter page of a publisher, in the form the access decision allowed: the whole
 * text, a teaser with how to license the rest, or a notice that the publisher keeps it from AI.
 */
import { blocks, safeHref, safeUrl } from "./brand.ts";
import { SiteFrame } from "./frame.tsx";
import { AccessLabel, topicHref, When } from "./parts.tsx";
import type { SiteArticleView, SiteBrand } from "./types.ts";

/** Plain text as paragraphs and headings (never HTML). */
export function Body(props: { text: string; class?: string }) {
  return (
    <div class={props.class ?? "body"}>
      {blocks(props.text).map((b, i) =>
        b.kind === "h2"
          ? <h2 key={i}>{b.text}</h2>
          : b.kind === "h3"
          ? <h3 key={i}>{b.text}</h3>
          : <p key={i}>{b.text}</p>
      )}
    </div>
  );
}

/** schema.org data of the page: a NewsArticle, or a Chapter of its Book. */
export function structuredData(view: SiteArticleView): Record<string, unknown> {
  const { article: a, brand } = view;
  const url = safeUrl(a.canonicalUrl) ?? undefined;
  const published = a.publishedAt && !Number.isNaN(new Date(a.publishedAt).getTime())
    ? new Date(a.publishedAt).toISOString()
    : undefined;
  const logo = safeUrl(brand.logoUrl);
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": a.chapter ? "Chapter" : "NewsArticle",
    headline: a.title,
    name: a.title,
    description: view.access === "blocked" ? undefined : a.summary || undefined,
    author: a.author ? { "@type": "Person", name: a.author } : undefined,
    datePublished: published,
    url,
    mainEntityOfPage: url,
    keywords: a.tags.length ? a.tags : undefined,
    inLanguage: "en",
    isAccessibleForFree: a.policy === "OBSERVE",
    license: safeUrl(brand.termsUrl) ?? undefined,
    publisher: {
      "@type": "Organization",
      name: brand.name,
      url: safeUrl(brand.origin) ?? undefined,
      logo: logo ? { "@type": "ImageObject", url: logo } : undefined,
    },
  };
  if (a.chapter) {
    data.position = a.chapter.no;
    data.isPartOf = {
      "@type": "Book",
      name: a.chapter.bookTitle,
      url: safeUrl(`${brand.origin}/books/${encodeURIComponent(a.chapter.bookId)}`) ?? undefined,
      author: a.author ? { "@type": "Person", name: a.author } : undefined,
    };
  }
  return data;
}

/** Where terms, license.xml and the buyer portal are. */
function LicenseLinks(
  props: { brand: SiteBrand; signupUrl?: string; primary?: boolean },
) {
  const terms = safeHref(props.brand.termsUrl);
  const signup = safeHref(props.signupUrl);
  const rsl = safeHref(props.brand.licenseXmlUrl) ?? "/license.xml";
  return (
    <p class="actions">
      {signup && props.primary ? <a class="button" href={signup}>Get a buyer key</a> : null}
      {terms ? <a class="button secondary" href={terms}>License terms</a> : null}
      <a class="button secondary" href={rsl}>license.xml (RSL)</a>
    </p>
  );
}

/** The paywall's box: the price per read and how an agent pays it. */
function HowToLicense(props: SiteArticleView) {
  const price = props.priceUsd;
  const signup = safeHref(props.signupUrl);
  return (
    <section class="box" aria-labelledby="license-title">
      <h2 id="license-title">
        How to license this {props.article.chapter ? "chapter" : "article"}
      </h2>
      <p>
        The rest of this {props.article.chapter ? "chapter" : "article"}{" "}
        is available to AI agents under a paid license from {props.brand.name}.
      </p>
      {price
        ? (
          <p class="price">
            <strong>USD {price}</strong> per read, including Folio's 4.7% platform fee.
          </p>
        )
        : <p class="price">The price per read is set out in the license terms.</p>}
      <ol>
        <li>
          Get a Folio buyer key{signup
            ? (
              <>
                {" "}from the <a href={signup}>buyer portal</a>
              </>
            )
            : null} (or sign requests with Web Bot Auth).
        </li>
        {props.payPerCrawl ? <PayPerCrawlSteps price={price} /> : (
          <li>
            Read it through Folio's API (REST, MCP or A2A) with that key: {props.brand.name}{" "}
            does not take payment on this site, so requesting this page again changes nothing.
          </li>
        )}
      </ol>
      <LicenseLinks brand={props.brand} signupUrl={props.signupUrl} primary />
      <p class="reason">{props.reason}</p>
    </section>
  );
}

/** How a crawler pays on this site: Cloudflare's pay-per-crawl retry. */
function PayPerCrawlSteps(props: { price: string | null }) {
  return (
    <>
      <li>
        Request this page again with{" "}
        <code>crawler-exact-price: USD {props.price ?? "<price>"}</code> and either{" "}
        <code>Authorization: Bearer &lt;buyer key&gt;</code> or a Web Bot Auth signature.
      </li>
      <li>
        The read is charged to the buyer's monthly statement (pay per crawl); the publisher keeps
        its price.
      </li>
    </>
  );
}

/** An article or chapter page. */
export function SiteArticle(props: SiteArticleView) {
  const { article: a, brand, access } = props;
  const ch = a.chapter;
  const bookHref = ch ? `${brand.base}/books/${encodeURIComponent(ch.bookId)}` : null;
  const prev = ch ? safeHref(ch.prevPath) : null;
  const next = ch ? safeHref(ch.nextPath) : null;
  return (
    <SiteFrame
      brand={brand}
      title={a.title}
      description={access === "blocked" ? undefined : a.summary || undefined}
      canonical={a.canonicalUrl}
      structured={structuredData(props)}
      hasBooks={Boolean(ch)}
      prev={prev}
      next={next}
    >
      <article class="article">
        <header class="article-head">
          {ch && bookHref
            ? (
              <p class="crumbs">
                <a href={bookHref}>{ch.bookTitle}</a> · Chapter {ch.no}
              </p>
            )
            : a.tags[0]
            ? <a class="eyebrow" href={topicHref(brand.base, a.tags[0])}>{a.tags[0]}</a>
            : null}
          <h1>{a.title}</h1>
          {access !== "blocked" && a.summary ? <p class="standfirst">{a.summary}</p> : null}
          <p class="byline">
            {a.author
              ? (
                <span>
                  By <strong>{a.author}</strong>
                </span>
              )
              : null}
            <When iso={a.publishedAt} />
            <AccessLabel policy={a.policy} />
          </p>
        </header>
        {access === "full" ? <Body text={a.body} /> : null}
        {access === "teaser"
          ? (
            <>
              <Body text={props.teaser} class="body teaser" />
              <HowToLicense {...props} />
            </>
          )
          : null}
        {access === "blocked"
          ? (
            <section class="box notice" aria-labelledby="blocked-title">
              <h2 id="blocked-title">Not available to AI agents</h2>
              <p>
                {brand.name} does not make this {ch ? "chapter" : "article"} available to AI agents.
              </p>
              <LicenseLinks brand={brand} />
              <p class="reason">{props.reason}</p>
            </section>
          )
          : null}
        <footer class="article-foot">
          {a.tags.length
            ? (
              <nav aria-label="Topics of this article">
                <ul class="tags">
                  {a.tags.map((t) => (
                    <li key={t}>
                      <a href={topicHref(brand.base, t)}>{t}</a>
                    </li>
                  ))}
                </ul>
              </nav>
            )
            : null}
          {access === "full" ? <p class="reason">{props.reason}</p> : null}
          {ch && (prev || next)
            ? (
              <nav class="chapter-nav" aria-label="Chapters">
                {prev
                  ? (
                    <a href={prev} rel="prev">
                      <span>Previous chapter</span>Chapter {ch.no - 1}
                    </a>
                  )
                  : null}
                {next
                  ? (
                    <a class="next" href={next} rel="next">
                      <span>Next chapter</span>Chapter {ch.no + 1}
                    </a>
                  )
                  : null}
              </nav>
            )
            : null}
        </footer>
      </article>
    </SiteFrame>
  );
}
