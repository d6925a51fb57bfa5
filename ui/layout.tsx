/** The shared page shell for server-rendered pages. Preact escapes every interpolated value. */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";

/** A complete HTML document around `children`. */
export function Page(
  props: { title: string; children: ComponentChildren; accent?: string; css?: string },
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
        <style>
          {`body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#111}
a{color:${accent}}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}
table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #e5e7eb;text-align:left}
h1{font-size:1.6rem}`}
        </style>
        {props.css && <style>{props.css}</style>}
      </head>
      <body>{props.children}</body>
    </html>
  );
}

/** Renders a page element to a full HTML string. */
export function renderPage(node: preact.VNode): string {
  return `<!doctype html>${renderToString(node)}`;
}
