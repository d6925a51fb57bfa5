/** The shared page shell for server-rendered pages. Preact escapes every interpolated value. */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";

/** A complete HTML document around `children`. */
export function Page(
  props: {
    title: string;
    children: ComponentChildren;
    accent?: string;
    css?: string;
    /**
     * "own": the page draws its own landmarks, with a `<main id="main">` (the portals' shell);
     * otherwise its content is the page's main landmark.
     */
    landmarks?: "own";
  },
) {
  const accent = props.accent && /^#[0-9a-fA-F]{3,8}$/.test(props.accent)
    ? props.accent
    : "#1d4ed8";
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <FaviconLink />
        <Stylesheet
          css={`body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#111}
a{color:${accent}}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}
a,code{overflow-wrap:anywhere}
table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #e5e7eb;text-align:left}
h1{font-size:1.6rem}
.skip{position:absolute;left:-9999px;top:.5rem;z-index:10;background:#fff;padding:.4rem .8rem;border:2px solid ${accent}}
.skip:focus{left:.5rem}`}
        />
        {props.css && <Stylesheet css={props.css} />}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        {props.landmarks === "own" ? props.children : <main id="main">{props.children}</main>}
      </body>
    </html>
  );
}

/** The platform's icon (server/pages/favicon.ts), in every platform page's head. */
export function FaviconLink() {
  return <link rel="icon" href="/favicon.svg" type="image/svg+xml" />;
}

/**
 * A <style> element holding `css` as written. Preact escapes a child string (`"` becomes
 * `&quot;`), which a browser reads literally inside <style> (raw text) and so drops the rule: the
 * checklist's marks never showed. The text is the page's own constant or built from
 * values checked by a pattern; refusing `<` keeps it from ending the element.
 */
export function Stylesheet(props: { css: string }) {
  if (props.css.includes("<")) throw new Error("A stylesheet may not contain <");
  return <style dangerouslySetInnerHTML={{ __html: props.css }} />;
}

/** Renders a page element to a full HTML string. */
export function renderPage(node: preact.VNode): string {
  return `<!doctype html>${renderToString(node)}`;
}
