/**
 * license.xml as a person reads it (issue 42): the publisher's RSL 1.0 license said in words, in
 * the site's frame, from the same tree the XML is written from (server/surfaces/landing/rsl.ts
 * `rslTree`), so the two never disagree. The page embeds the license as RSL 1.0's embedded form
 * (`<script type="application/rsl+xml">`, a data block), so it is itself valid RSL, and shows
 * the XML agents get.
 */
import { SiteFrame } from "./frame.tsx";
import { safeHref } from "./brand.ts";
import type { SiteBrand } from "./types.ts";

/** An element of the RSL document (rsl.ts `XmlNode`). */
export interface RslElement {
  name: string;
  attrs: Record<string, string>;
  body: string | RslElement[];
}

/** RSL 1.0 §3.4.1's usage tokens in words. */
const USAGE_WORDS: Record<string, string> = {
  "all": "any use at all",
  "ai-all": "any AI use",
  "ai-train": "training AI models",
  "ai-input": "giving the text to an AI model to answer with (display, summaries, retrieval)",
  "ai-index": "indexing for AI retrieval",
  "search": "search",
};

/** RSL 1.0 §3.7's payment types in words. */
const PAYMENT_WORDS: Record<string, string> = {
  free: "Free of charge",
  crawl: "Paid per page crawled",
  subscription: "With a subscription, from the license server",
  training: "With a training license, on request, at terms agreed with the publisher",
  purchase: "Bought once",
  use: "Paid per use",
  contribution: "With a contribution",
  attribution: "Free, with attribution",
};

/** What the page is given. */
export interface LicenseViewProps {
  brand: SiteBrand;
  /** The `<rsl>` element. */
  root: RslElement;
  /** The header lines the XML states in its comments. */
  notes: string[];
  /** The `<rsl>` element as XML (embedded, and shown). */
  xml: string;
  /** Where the XML is fetched (this address, as agents get it). */
  licenseXmlUrl: string;
}

/** The page. */
export function LicenseView(props: LicenseViewProps) {
  const { brand } = props;
  // The one raw insertion: XML whose text and attributes are escaped (rsl.ts), so it holds no
  // "</script"; refused outright should it ever.
  if (/<\/script/i.test(props.xml)) throw new Error("The license XML would end its script element");
  const contents = children(props.root).filter((c) => c.name === "content");
  const terms = safeHref(brand.termsUrl);
  return (
    <SiteFrame brand={brand} title="License for AI use" section={null}>
      <script type="application/rsl+xml" dangerouslySetInnerHTML={{ __html: props.xml }} />
      <h1>License for AI use</h1>
      <p>
        This is{" "}
        {brand.name}'s license for AI systems and crawlers, in Really Simple Licensing (RSL 1.0).
        Agents that fetch <code style="overflow-wrap:anywhere">{props.licenseXmlUrl}</code>{" "}
        get it as XML; this page says it in words.
      </p>
      {terms
        ? (
          <p>
            Prices per read for buyers of the Folio marketplace are on{" "}
            <a href={terms}>the license terms page</a>.
          </p>
        )
        : null}
      {contents.map((content, i) => <ContentTerms key={i} content={content} index={i} />)}
      <details>
        <summary>The license as agents read it (RSL 1.0 XML)</summary>
        <ul>
          {props.notes.map((n, i) => <li key={i}>{n}</li>)}
        </ul>
        <pre class="rsl-xml" tabIndex={0} style="overflow-x:auto;max-width:100%;font-size:.8rem">
          <code>{props.xml}</code>
        </pre>
      </details>
    </SiteFrame>
  );
}

function ContentTerms(props: { content: RslElement; index: number }) {
  const { content } = props;
  const id = `pages-${props.index}`;
  const licenses = children(content).filter((c) => c.name === "license");
  const server = content.attrs.server;
  return (
    <section aria-labelledby={id} class="rsl-content">
      <h2 id={id} style="overflow-wrap:anywhere">
        Pages <code>{content.attrs.url}</code>
      </h2>
      <ol>
        {licenses.map((license, i) => <LicenseTerms key={i} license={license} />)}
      </ol>
      {server
        ? (
          <p>
            Licenses for these pages are obtained from the license server <code>{server}</code>.
          </p>
        )
        : null}
    </section>
  );
}

function LicenseTerms(props: { license: RslElement }) {
  const parts = children(props.license);
  const payment = parts.find((p) => p.name === "payment");
  const contact = parts.find((p) => p.name === "legal" && p.attrs.type === "contact");
  return (
    <li>
      <p>
        <strong>{payment ? paymentWords(payment) : "No payment is offered for these uses"}</strong>
        {payment ? <PaymentLinks payment={payment} /> : null}
      </p>
      <ul>
        {parts.filter((p) => p.name === "permits" || p.name === "prohibits").map((p, i) => (
          <li key={i}>{termWords(p)}</li>
        ))}
        {contact && typeof contact.body === "string"
          ? (
            <li>
              Contact: <Link href={contact.body} />
            </li>
          )
          : null}
      </ul>
    </li>
  );
}

function paymentWords(payment: RslElement): string {
  const type = payment.attrs.type ?? "free";
  const amount = children(payment).find((c) => c.name === "amount");
  const words = PAYMENT_WORDS[type] ?? type;
  return amount && typeof amount.body === "string"
    ? `${words}: ${amount.body} ${amount.attrs.currency ?? ""}`.trim()
    : words;
}

function PaymentLinks(props: { payment: RslElement }) {
  const links = children(props.payment).filter((c) => c.name === "custom" || c.name === "standard");
  return (
    <>
      {links.map((l, i) =>
        typeof l.body === "string"
          ? (
            <span key={i}>
              {` (`}
              <Link href={l.body} />)
            </span>
          )
          : null
      )}
    </>
  );
}

function termWords(term: RslElement): string {
  const allowed = term.name === "permits";
  const values = typeof term.body === "string" ? term.body.split(/\s+/).filter(Boolean) : [];
  const type = term.attrs.type;
  if (type === "usage") {
    return `${allowed ? "Allowed" : "Not allowed"}: ${
      values.map((v) => USAGE_WORDS[v] ?? v).join("; ")
    }`;
  }
  if (type === "geo") {
    return `${allowed ? "Only in" : "Not in"} these countries: ${values.join(", ")}`;
  }
  return `${allowed ? "Only for" : "Not for"}: ${values.join(", ")}`;
}

function Link(props: { href: string }) {
  const href = safeHref(props.href);
  return href ? <a href={href}>{props.href}</a> : <code>{props.href}</code>;
}

function children(node: RslElement): RslElement[] {
  return typeof node.body === "string" ? [] : node.body;
}
