/**
 * Sites on the sources page (issue 30): add a site by its address, see each site's pages by state
 * and latest sync, and sync one now; a site sync's job page shows what its discovery read.
 */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { Scroll } from "./scroll.tsx";
import { count, CsrfField, When, type Who } from "./shell.tsx";
import type { JobView, SourceView } from "./sources.tsx";

/** The "Sites" card: the add form and the sites with their sync buttons. */
export function SitesCard(props: {
  who: Who;
  sites: SourceView[];
  fieldProblem?: FieldProblem | null;
}) {
  return (
    <section class="card" aria-labelledby="sites-title">
      <h2 id="sites-title">Sites</h2>
      <p class="muted small">
        Give your site's address: Folio reads the sitemaps your robots.txt names (or /sitemap.xml),
        sitemap indexes, gzip and Google News sitemaps, and the RSS and Atom feeds your page links,
        then ingests every article they list. It checks again daily: new articles are added, changed
        ones updated, and pages that answer 404 or 410 unpublished.
      </p>
      <form method="post" action="/publisher/sources/sites" class="row">
        <CsrfField token={props.who.csrfToken} />
        <label for="site-url" style="margin:0">Site address</label>
        <input
          {...invalidIf(props.fieldProblem, "url")}
          id="site-url"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/"
          maxLength={2048}
          required
          style="width:20rem"
        />
        <label for="site-every" style="margin:0">Sync every</label>
        <IntervalSelect id="site-every" value={24} />
        <button type="submit">Add site and sync</button>
      </form>
      <FieldError problem={props.fieldProblem} name="url" />
      <FieldError problem={props.fieldProblem} name="syncEveryHours" />
      {props.sites.length === 0 ? <p class="muted">No sites yet.</p> : (
        <Scroll label="Sites">
          <table>
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Pages ingested</th>
                <th scope="col">Last sync</th>
                <th scope="col">Every</th>
                <th scope="col">Sync</th>
              </tr>
            </thead>
            <tbody>
              {props.sites.map((s) => (
                <tr key={s.id}>
                  <td style="overflow-wrap:anywhere">
                    <a href={`/publisher/sources/${s.id}`}>{s.siteUrl}</a>
                  </td>
                  <td>{count((s.urls.ingested ?? 0) + (s.urls.unchanged ?? 0))}</td>
                  <td>
                    {s.jobId
                      ? (
                        <a href={`/publisher/jobs/${s.jobId}`}>
                          <When iso={s.lastSyncedAt} />
                        </a>
                      )
                      : <When iso={s.lastSyncedAt} />}
                  </td>
                  <td>{everyText(s.syncEveryHours)}</td>
                  <td>
                    <SyncButton who={props.who} site={s} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

/** Intervals the console offers (the API takes any whole hours from 1 to 168). */
const INTERVALS = [1, 6, 12, 24, 72, 168];

/** "daily", "every 6 h", "weekly". */
export function everyText(hours: number | null): string {
  if (hours === 24) return "daily";
  if (hours === 168) return "weekly";
  return hours ? `every ${hours} h` : "—";
}

/** The sync interval's select, `value` hours chosen. */
export function IntervalSelect(props: { id: string; value: number | null }) {
  const options = INTERVALS.includes(props.value ?? 24)
    ? INTERVALS
    : [...INTERVALS, props.value!].sort((a, b) => a - b);
  return (
    <select id={props.id} name="syncEveryHours">
      {options.map((h) => (
        <option key={h} value={String(h)} selected={h === (props.value ?? 24)}>
          {everyText(h)}
        </option>
      ))}
    </select>
  );
}

/** "Sync now" for one site. */
export function SyncButton(props: { who: Who; site: SourceView }) {
  return (
    <form method="post" action={`/publisher/sources/sites/${props.site.id}/sync`}>
      <CsrfField token={props.who.csrfToken} />
      <button type="submit" class="secondary" aria-label={`Sync now: ${props.site.siteUrl}`}>
        Sync now
      </button>
    </form>
  );
}

type Discovery = {
  documents?: { url: string; kind: string; listed: number; problem: string | null }[];
  pages?: number;
  offSite?: number;
  problems?: string[];
};

const KIND_WORDS: Record<string, string> = {
  page: "page (feed links)",
  urlset: "sitemap",
  sitemapindex: "sitemap index",
  rss: "RSS feed",
  rdf: "RSS 1.0 feed",
  atom: "Atom feed",
  json: "JSON feed",
  text: "text sitemap",
  unknown: "not read",
};

/** What a site sync's discovery read, on its job page. */
export function DiscoveryCard(props: { job: JobView }) {
  const d = props.job.discovery as Discovery | null;
  if (!d) return null;
  const docs = d.documents ?? [];
  return (
    <section class="card" aria-labelledby="discovery-title">
      <h2 id="discovery-title">What the site lists</h2>
      <p>
        {count(d.pages ?? 0)} pages listed · {count(props.job.unpublished)} unpublished (gone)
        {d.offSite ? ` · ${count(d.offSite)} on other hosts left out` : ""}
      </p>
      {docs.length > 0 && (
        <Scroll label="Sitemaps and feeds">
          <table>
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Kind</th>
                <th scope="col">Listed</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {docs.map((doc, i) => (
                <tr key={`${i}-${doc.url}`}>
                  <td class="small" style="overflow-wrap:anywhere">{doc.url}</td>
                  <td>{KIND_WORDS[doc.kind] ?? doc.kind}</td>
                  <td>{count(doc.listed)}</td>
                  <td class="small">{doc.problem ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}
