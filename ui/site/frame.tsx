/**
 * The document and frame of a publisher's own pages: masthead with its logo or name, navigation,
 * the page, and a footer that says how the content is licensed for AI. Works without JavaScript;
 * the only script is an article's JSON-LD, which is data.
 */
import type { ComponentChildren } from "preact";
import { jsonLd, palette, safeFont, safeHref, safeUrl } from "./brand.ts";
import { siteCss } from "./style.ts";
import type { SiteBrand } from "./types.ts";

/** The navigation entry of the page being shown. */
export type SiteSection = "latest" | "topics" | "books" | "terms" | null;

/** What every publisher page gives its frame. */
export interface SiteFrameProps {
  brand: SiteBrand;
  /** The document title (the publisher's name is added). */
  title: string;
  /** The meta description. */
  description?: string;
  /** The canonical URL (article pages). */
  canonical?: string;
  /** Structured data (schema.org), serialized safely into `application/ld+json`. */
  structured?: Record<string, unknown>;
  /** Show "Books" in the navigation (when the publisher has any). */
  hasBooks?: boolean;
  section?: SiteSection;
  /** Links to the neighbouring pages of a list or a book (`<link rel=prev/next>`). */
  prev?: string | null;
  next?: string | null;
  children: ComponentChildren;
}

/** The whole document of a publisher page. */
export function SiteFrame(props: SiteFrameProps) {
  const { brand } = props;
  const colors = palette(brand.primaryColor);
  const font = safeFont(brand.font);
  const logo = safeUrl(brand.logoUrl);
  const license = safeHref(brand.licenseXmlUrl) ?? "/license.xml";
  const terms = safeHref(brand.termsUrl);
  const canonical = safeUrl(props.canonical);
  const title = props.title === brand.name ? brand.name : `${props.title} · ${brand.name}`;
  const here = (s: SiteSection) => (props.section === s ? "page" : undefined);
  const home = `${brand.base}/`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {props.description ? <meta name="description" content={props.description} /> : null}
        <meta name="theme-color" content={colors.brand} />
        <link rel="license" type="application/rsl+xml" href={license} />
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        {props.prev ? <link rel="prev" href={props.prev} /> : null}
        {props.next ? <link rel="next" href={props.next} /> : null}
        <style>{siteCss(colors, font)}</style>
        {props.structured
          ? (
            <script
              type="application/ld+json"
              // The one raw insertion: JSON with every "<" escaped (jsonLd), so it cannot close
              // the script element whatever the data holds.
              dangerouslySetInnerHTML={{ __html: jsonLd(props.structured) }}
            />
          )
          : null}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="masthead">
          <div class="container">
            <a class="brand" href={home}>
              {logo ? <img src={logo} alt={brand.name} /> : <span>{brand.name}</span>}
            </a>
            <nav class="site-nav" aria-label="Site">
              <ul>
                <li>
                  <a href={home} aria-current={here("latest")}>Latest</a>
                </li>
                <li>
                  <a href={`${home}#topics`} aria-current={here("topics")}>Topics</a>
                </li>
                {props.hasBooks
                  ? (
                    <li>
                      <a href={`${home}#books`} aria-current={here("books")}>Books</a>
                    </li>
                  )
                  : null}
                {terms
                  ? (
                    <li>
                      <a href={terms} aria-current={here("terms")}>License terms</a>
                    </li>
                  )
                  : null}
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" tabIndex={-1}>
          <div class="container">{props.children}</div>
        </main>
        <footer class="site-foot">
          <div class="container">
            <p>
              <strong>{brand.name}</strong> · Content licensed for AI through Folio
            </p>
            <nav aria-label="Licensing">
              <ul>
                {terms
                  ? (
                    <li>
                      <a href={terms}>License terms</a>
                    </li>
                  )
                  : null}
                <li>
                  <a href={license}>license.xml (RSL)</a>
                </li>
              </ul>
            </nav>
          </div>
        </footer>
      </body>
    </html>
  );
}
