/** The small pages for a path that is not there (404) and for an error on Folio's side (5xx). */
import { SiteFrame } from "./frame.tsx";
import type { SiteErrorView, SiteNotFoundView } from "./types.ts";

/** 404: nothing at this path. */
export function SiteNotFound(props: SiteNotFoundView) {
  return (
    <SiteFrame brand={props.brand} title="Page not found">
      <div class="article">
        <div class="page-head">
          <span class="eyebrow">404</span>
          <h1>Page not found</h1>
          <p>
            There is nothing at <code>{props.path}</code> on {props.brand.name}.
          </p>
        </div>
        <p>
          <a href={`${props.brand.base}/`}>See the latest articles</a> or{" "}
          <a href={`${props.brand.base}/#topics`}>browse by topic</a>.
        </p>
      </div>
    </SiteFrame>
  );
}

/** 5xx: the page could not be shown. */
export function SiteError(props: SiteErrorView) {
  return (
    <SiteFrame brand={props.brand} title="Something went wrong">
      <div class="article">
        <div class="page-head">
          <span class="eyebrow">Error</span>
          <h1>Something went wrong</h1>
          <p>This page could not be shown just now. Please try again in a moment.</p>
        </div>
        {props.requestId
          ? (
            <p class="reason">
              If it keeps happening, mention request <code>{props.requestId}</code>.
            </p>
          )
          : null}
        <p>
          <a href={`${props.brand.base}/`}>Go to the latest articles</a>
        </p>
      </div>
    </SiteFrame>
  );
}
