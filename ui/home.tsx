/** The platform's front page: what is running here and where each surface lives. */
import type { PublisherUrls } from "../server/platform/urls.ts";
import { Page } from "./layout.tsx";

/** One publisher as listed on the home page. */
export interface HomePublisher {
  name: string;
  slug: string;
  articles: number;
  urls: PublisherUrls;
  /** Whether a visitor with no key may call its REST API (public REST on a custom domain). */
  restOpen: boolean;
}

/** The home page. */
export function HomePage(props: { baseUrl: string; publishers: HomePublisher[] }) {
  return (
    <Page title="Folio">
      <h1>Folio</h1>
      <p>
        A content licensing marketplace for AI: publishers' catalogs, read under license through
        MCP, REST and A2A, settled on one monthly statement.
      </p>
      <p>
        Publishers: <a href="/publisher/signup">create an account</a> or{" "}
        <a href="/publisher/login">sign in to your console</a>.
      </p>
      <p>
        AI companies: <a href="/buyer/signup">create a buyer account</a> or{" "}
        <a href="/buyer/login">sign in to your buyer portal</a>, and read every publisher under one
        key.
      </p>
      <p class="small">
        Developers: a script can make a buyer account too (see{" "}
        <a href="/docs#post-api-marketplace-signup">signing up in the API reference</a>); the{" "}
        <a href="/docs">API reference</a>{" "}
        documents every buyer, REST and publisher operation with curl examples.
      </p>
      <ul>
        <li>
          API reference: <a href="/docs">/docs</a> (as OpenAPI 3.1:{" "}
          <a href="/api/openapi.json">/api/openapi.json</a>)
        </li>
        <li>
          Marketplace catalog: <a href="/api/marketplace/catalog">/api/marketplace/catalog</a>
        </li>
        <li>
          Health: <a href="/api/health">/api/health</a>
        </li>
        <li>
          Status: <a href="/status">/status</a> (figures as JSON:{" "}
          <a href="/api/status">/api/status</a>)
        </li>
      </ul>
      <h2>Publishers</h2>
      {props.publishers.length === 0 ? <p>No publishers yet.</p> : (
        <table>
          <thead>
            <tr>
              <th>Publisher</th>
              <th>Articles</th>
              <th>Surfaces</th>
            </tr>
          </thead>
          <tbody>
            {props.publishers.map((p) => (
              <tr key={p.slug}>
                <td>{p.name}</td>
                <td>{p.articles}</td>
                <td>
                  MCP <code>{p.urls.mcp}</code>
                  {p.urls.rest && (
                    <>
                      <br />REST {p.restOpen
                        ? <a href={`${p.urls.rest}/articles/search?q=energy`}>{p.urls.rest}</a>
                        : (
                          <>
                            <code>{p.urls.rest}</code> (with a buyer key)
                          </>
                        )}
                    </>
                  )}
                  <br />Terms <a href={p.urls.terms}>{p.urls.terms}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
