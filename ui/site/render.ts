/** A publisher page as the HTML string a route answers with. */
import type { VNode } from "preact";
import { renderPage } from "../layout.tsx";

/** `<!doctype html>` and the rendered page (any page element: JSX or `h(SiteHome, view)`). */
export function renderSite<P>(node: VNode<P>): string {
  return renderPage(node as VNode);
}
