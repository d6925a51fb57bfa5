/**
 * The article UI resource `ui://article/{id}` (docs/SPEC.md "MCP server"). With MCP Apps on it is an
 * MCP App (`text/html;profile=mcp-app`, SEP-1865) carrying a small postMessage bridge: it
 * initializes with the host (`ui/initialize`), reports its size, opens links through the host
 * (`ui/open-link`) and, as the template shell, renders the tool result the host forwards
 * (`ui/notifications/tool-result`) with textContent only. Off, it is a plain text/html page.
 * Server-side, every value goes through Preact, which escapes it.
 */
import { renderToString } from "preact-render-to-string";
import type { Article } from "../../../store/articles.ts";
import type { LicenseBlock } from "../../domain/reads/license_block.ts";

/** MIME type of an MCP App resource (SEP-1865). */
export const MCP_APP_MIME = "text/html;profile=mcp-app";

/** The URI of an article's UI resource; the literal template is the app shell. */
export function articleUiUri(id: string): string {
  return `ui://article/${id}`;
}

/** The resource template of the article pages (resources/templates/list, completion). */
export const ARTICLE_UI_TEMPLATE = "ui://article/{id}";

/**
 * The app view that tools/list `_meta.ui.resourceUri` names: one concrete, predeclared resource
 * (SEP-1865 "Resource Discovery": it MUST exist and the host reads it before the call), which renders
 * the tool result the host forwards. A URI template there would be read literally.
 */
export const ARTICLE_VIEW_URI = "ui://folio/article-view";

/** The tool's UI metadata, with the flat key older hosts read (as ext-apps' registerAppTool does). */
export const TOOL_UI_META = {
  ui: { resourceUri: ARTICLE_VIEW_URI },
  "ui/resourceUri": ARTICLE_VIEW_URI,
} as const;

/**
 * The UI resource's `_meta.ui` (SEP-1865 "UI Resource Format"): no external origin of any kind (the
 * page is inline HTML, CSS and script; links open through the host), no device permission, and a
 * border, stated rather than left to each host's default.
 */
export const RESOURCE_UI_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
};

/** What the page shows: the article (body only when served in full) and its license block. */
export interface ArticleView {
  article: Pick<Article, "id" | "title" | "author" | "publishedAt"> & { url: string };
  body: string | null;
  summary: string | null;
  notice: string | null;
  license: LicenseBlock | null;
}

/** The HTML of the article page, or of the shell when `view` is null. */
export function articlePage(view: ArticleView | null, options: { mcpApps: boolean }): string {
  const a = view?.article;
  const paragraphs = (view?.body ?? view?.summary ?? "").split(/\n{2,}/).filter((p) => p.trim());
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{a?.title ?? "Article"}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <article id="folio-app" data-shell={view ? undefined : "1"}>
          <h1 id="f-title">{a?.title ?? ""}</h1>
          <p id="f-byline" class="byline">
            {a ? [a.author, a.publishedAt?.slice(0, 10)].filter(Boolean).join(" · ") : ""}
          </p>
          {view?.notice ? <p class="notice">{view.notice}</p> : null}
          <div id="f-body">{paragraphs.map((p, i) => <p key={i}>{p}</p>)}</div>
          <footer id="f-license">
            {a ? <LicenseFooter url={a.url} license={view?.license ?? null} /> : null}
          </footer>
        </article>
        {options.mcpApps ? <script dangerouslySetInnerHTML={{ __html: BRIDGE }} /> : null}
      </body>
    </html>
  );
  return `<!doctype html>${renderToString(page)}`;
}

function LicenseFooter(props: { url: string; license: LicenseBlock | null }) {
  const l = props.license;
  return (
    <>
      <p>
        Source: <a href={props.url}>{props.url}</a>
      </p>
      {l
        ? (
          <dl>
            <dt>Licensor</dt>
            <dd>{l.licensor}</dd>
            <dt>Rights</dt>
            <dd>
              {Object.entries(l.rights).map(([k, v]) => `${k}: ${v}`).join(", ")}
            </dd>
            <dt>Per-use price (US cents)</dt>
            <dd>
              {Object.entries(l.pricingUsdCents).map(([k, v]) => `${k}: ${v}`).join(", ")}
            </dd>
            <dt>Terms</dt>
            <dd>
              <a href={l.termsUrl}>{l.termsUrl}</a>
            </dd>
            <dt>More rights</dt>
            <dd>{l.requestVia}</dd>
          </dl>
        )
        : null}
    </>
  );
}

const STYLE = `body{font:16px/1.55 Georgia,serif;margin:0;padding:1rem 1.25rem;color:#111}
h1{font-size:1.4rem;margin:.2rem 0}.byline{color:#555;font:14px system-ui,sans-serif}
.notice{background:#fef3c7;padding:.5rem .75rem;border-radius:6px;font:14px system-ui,sans-serif}
footer{border-top:1px solid #e5e7eb;margin-top:1.5rem;font:13px/1.4 system-ui,sans-serif;color:#333}
dt{font-weight:600;margin-top:.4rem}dd{margin:0}`;

// Static code: no value is ever interpolated into it. The shell fills itself with textContent.
const BRIDGE = `(() => {
  let next = 0; const pending = new Map();
  const post = (m) => window.parent.postMessage(m, "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = ++next; pending.set(id, { resolve, reject });
    post({ jsonrpc: "2.0", id, method, params });
  });
  const notify = (method, params) => post({ jsonrpc: "2.0", method, params });
  const text = (id, value) => { document.getElementById(id).textContent = value || ""; };
  function render(result) {
    const root = document.getElementById("folio-app");
    const sc = result && result.structuredContent;
    if (!root || root.dataset.shell !== "1" || !sc || !sc.article) return;
    const a = sc.article;
    text("f-title", a.title);
    text("f-byline", [a.author, (a.publishedAt || "").slice(0, 10)].filter(Boolean).join(" · "));
    const body = document.getElementById("f-body"); body.textContent = "";
    for (const p of String(a.body || a.summary || sc.message || "").split(/\\n{2,}/)) {
      const el = document.createElement("p"); el.textContent = p; body.appendChild(el);
    }
    const foot = document.getElementById("f-license"); foot.textContent = "";
    const src = document.createElement("p"); src.textContent = "Source: " + (a.url || "");
    foot.appendChild(src);
    if (sc.license) {
      const l = document.createElement("p");
      l.textContent = "Licensor: " + sc.license.licensor + ". Terms: " + sc.license.termsUrl;
      foot.appendChild(l);
    }
    size();
  }
  window.addEventListener("message", (e) => {
    if (e.source !== window.parent) return;
    const m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && pending.has(m.id) && !m.method) {
      const p = pending.get(m.id); pending.delete(m.id);
      if (m.error) p.reject(m.error); else p.resolve(m.result);
    } else if (m.method === "ui/notifications/tool-result") {
      render(m.params);
    } else if (m.method && m.id !== undefined) {
      // The host waits for an answer to its requests (teardown, ping); nothing else is served.
      const known = m.method === "ui/resource-teardown" || m.method === "ping";
      post(known ? { jsonrpc: "2.0", id: m.id, result: {} }
        : { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
    }
  });
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest("a[href]");
    if (!link) return;
    e.preventDefault();
    request("ui/open-link", { url: link.href }).catch(() => {});
  });
  const size = () => notify("ui/notifications/size-changed", {
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  });
  request("ui/initialize", {
    appInfo: { name: "folio-article", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: "2026-01-26",
  }).then(() => { notify("ui/notifications/initialized", {}); size(); }).catch(() => {});
  if (window.ResizeObserver) new ResizeObserver(size).observe(document.body);
})();`;
