/** The platform's 404 as a page, for a browser that asked for a path with no route. */
import { Page } from "./layout.tsx";

/** The page: what was asked for (escaped, as every interpolation) and the way home. */
export function NotFoundPage(props: { path: string }) {
  return (
    <Page title="Page not found · Folio">
      <p>
        <a href="/">Folio</a>
      </p>
      <h1>Page not found</h1>
      <p>
        There is no page at{" "}
        <code>{props.path}</code>. It may have moved, or the link may be mistyped.
      </p>
      <p>
        Go to the <a href="/">Folio home page</a>, the <a href="/docs">API reference</a> or the{" "}
        <a href="/status">status page</a>.
      </p>
    </Page>
  );
}
