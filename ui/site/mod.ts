/** The publisher's own website pages (the landing path on its custom domain). */
export type * from "./types.ts";
export { SiteFrame, type SiteFrameProps, type SiteSection } from "./frame.tsx";
export { SiteHome, SiteTopic } from "./home.tsx";
export { SiteBook } from "./book.tsx";
export { SiteArticle } from "./article.tsx";
export { SiteError, SiteNotFound } from "./not_found.tsx";
export { renderSite } from "./render.ts";
