/**
 * The API reference at /docs, rendered on the server from the OpenAPI document's view
 * (server/surfaces/openapi/reference.ts): an index by API, then every operation with who may call it, its
 * parameters, its request and response bodies as field tables, and a curl example to copy. No
 * script is needed; /docs/copy.js only adds copy buttons.
 */
import type {
  BodyView,
  FieldRow,
  OperationView,
  ParamView,
  ReferenceView,
  ResponseView,
} from "../server/surfaces/openapi/reference.ts";
import { Scroll } from "./console/scroll.tsx";
import { FaviconLink, Stylesheet } from "./layout.tsx";

const CSS = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#f8fafc}
a{color:#1d4ed8}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
code{background:#eef2f7;padding:.05rem .3rem;border-radius:4px;overflow-wrap:anywhere}
.skip{position:absolute;left:-9999px;top:.5rem;z-index:10;background:#fff;padding:.4rem .8rem}
.skip:focus{left:.5rem}
header.top{background:#0f172a;color:#f8fafc;padding:.8rem 1.2rem}
header.top a{color:#f8fafc}header.top h1{margin:0;font-size:1.4rem}
.wrap{display:flex;gap:2rem;max-width:84rem;margin:0 auto;padding:1.2rem}
nav.index{flex:0 0 19rem;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow:auto;font-size:.9rem;padding-top:.5rem}
nav.index h2{font-size:1rem;margin:1rem 0 .3rem}nav.index ul{list-style:none;margin:0;padding:0}
nav.index li a{display:flex;gap:.4rem;align-items:flex-start;padding:.15rem .3rem;border-radius:4px;text-decoration:none;color:#1e293b}
nav.index .m{flex:none;margin-top:.1rem}
nav.index li a:hover{background:#e2e8f0}
main{flex:1;min-width:0}
@media (max-width:60rem){.wrap{flex-direction:column}nav.index{position:static;max-height:none;flex:none}}
.intro{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:.8rem 1.2rem;margin-bottom:1.5rem}
section.api>h2{font-size:1.35rem;border-bottom:2px solid #cbd5e1;padding-bottom:.3rem;margin-top:2rem}
article.op{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:.4rem 1.2rem 1rem;margin:0 0 1.2rem;scroll-margin-top:.5rem}
article.op h3{font-size:1.05rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
article.op h3 code{background:none;padding:0;font-size:1rem}
article.op h4{font-size:.95rem;margin:1rem 0 .3rem;color:#334155}
.summary{font-weight:600;margin:.2rem 0}
.m{display:inline-block;min-width:3.6rem;text-align:center;border-radius:4px;padding:0 .35rem;font:700 .78rem/1.6 ui-monospace,monospace;border:1px solid}
.GET{background:#ecfdf5;color:#065f46;border-color:#6ee7b7}.POST{background:#eff6ff;color:#1e3a8a;border-color:#93c5fd}
.PUT,.PATCH{background:#fffbeb;color:#78350f;border-color:#fcd34d}.DELETE{background:#fef2f2;color:#7f1d1d;border-color:#fca5a5}
.pending{background:#fffbeb;border:1px solid #f59e0b;border-radius:6px;padding:.3rem .6rem;color:#78350f}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{padding:.3rem .5rem;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top}
th{font-size:.8rem;color:#334155;background:#f8fafc}
td.name{white-space:nowrap}td.name code{background:none;padding:0}
.rules{color:#475569;font-size:.85rem}.req{color:#9a3412;font-size:.8rem;font-weight:600}
.opt{color:#475569;font-size:.8rem}
details.res{border:1px solid #e2e8f0;border-radius:6px;margin:.3rem 0}
details.res>summary{cursor:pointer;padding:.3rem .6rem}details.res[open]>summary{border-bottom:1px solid #e2e8f0}
details.res>div{padding:.3rem .6rem}
.status{font:700 .85rem ui-monospace,monospace}
.copy{position:relative}
pre{background:#0f172a;color:#e2e8f0;padding:.7rem .9rem;border-radius:8px;overflow-x:auto;margin:.3rem 0}
pre code{background:none;padding:0;color:inherit;overflow-wrap:normal}
.copy-button{position:absolute;top:.4rem;right:.4rem;font:inherit;font-size:.8rem;padding:.1rem .5rem;border-radius:4px;border:1px solid #94a3b8;background:#1e293b;color:#f8fafc;cursor:pointer}
.shape{font-size:.85rem;color:#334155;margin:.5rem 0 .2rem}
.later{display:block;font-size:.8rem;color:#92400e}
`;

/** The reference page. */
export function ApiDocsPage(props: { reference: ReferenceView; specUrl: string }) {
  const ref = props.reference;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${ref.title} reference`}</title>
        <FaviconLink />
        <Stylesheet css={CSS} />
      </head>
      <body>
        <a class="skip" href="#main">Skip to the reference</a>
        <header class="top">
          <h1>{ref.title} reference</h1>
          <a href="/">Folio home</a> · <a href={props.specUrl}>OpenAPI document (JSON)</a>
        </header>
        <div class="wrap">
          <nav class="index" aria-label="Operations">
            {ref.tags.map((tag) => (
              <div key={tag.anchor}>
                <h2>
                  <a href={`#${tag.anchor}`}>{tag.name}</a>
                </h2>
                <ul>
                  {tag.operations.map((op) => (
                    <li key={op.anchor}>
                      <a href={`#${op.anchor}`}>
                        <span class={`m ${op.method}`}>{op.method}</span>
                        <span>
                          {op.summary}
                          {op.pending && <span class="later">(not served yet)</span>}
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
          <main id="main">
            <div class="intro">
              <p>{withCode(ref.description)}</p>
              <p>
                Every path is on <code>{ref.baseUrl}</code>{" "}
                unless an operation names another host. The curl examples read keys and ids from
                shell variables:
              </p>
              <ul>
                <li>
                  <code>BUYER_KEY</code>: the buyer key (<code>mk_</code>) from signup;
                </li>
                <li>
                  <code>PUBLISHER_KEY</code>: a publisher key (<code>pk_</code>);
                </li>
                <li>
                  a path parameter: its name in capitals, e.g. <code>ID_OR_URL</code>;
                </li>
                <li>
                  <code>IDEMPOTENCY_KEY</code>: a new one for each charged read, e.g.{" "}
                  <code>$(uuidgen)</code>, kept when the read is retried.
                </li>
              </ul>
            </div>
            {ref.tags.map((tag) => (
              <section class="api" key={tag.anchor} aria-labelledby={tag.anchor}>
                <h2 id={tag.anchor}>{tag.name}</h2>
                <p>{withCode(tag.description)}</p>
                {tag.operations.map((op) => <Operation key={op.anchor} op={op} />)}
              </section>
            ))}
          </main>
        </div>
        <script src="/docs/copy.js" defer></script>
      </body>
    </html>
  );
}

function Operation({ op }: { op: OperationView }) {
  return (
    <article class="op" id={op.anchor} aria-labelledby={`${op.anchor}-title`}>
      <h3 id={`${op.anchor}-title`}>
        <span class={`m ${op.method}`}>{op.method}</span>
        <code>{op.path}</code>
      </h3>
      <p class="summary">{op.summary}</p>
      {op.pending && <p class="pending">Not served by this build yet: {op.pending}.</p>}
      {op.description && <p>{withCode(op.description)}</p>}
      {op.server && (
        <p>
          Served on <code>{op.server}</code>.
        </p>
      )}
      <p>
        <b>Auth:</b> {authWords(op)}
      </p>
      {op.params.length > 0 && <Params op={op} params={op.params} />}
      {op.body && (
        <>
          <h4>
            Request body <code>{op.body.mediaType}</code>
            {op.body.required ? "" : " (optional)"}
          </h4>
          <Body body={op.body} label={`${op.method} ${op.path} request`} request />
        </>
      )}
      <h4>Responses</h4>
      {op.responses.map((r) => <Response key={r.status} r={r} op={op} />)}
      <h4>Example</h4>
      <div class="copy">
        <pre role="region" tabIndex={0} aria-label={`curl example: ${op.method} ${op.path}`}>
          <code data-copy={op.curl}>{op.curl}</code>
        </pre>
        <button type="button" class="copy-button" data-copy-label="the curl example" hidden>
          Copy
        </button>
      </div>
    </article>
  );
}

function Params(props: { op: OperationView; params: ParamView[] }) {
  return (
    <>
      <h4>Parameters</h4>
      <Scroll label={`${props.op.method} ${props.op.path} parameters`}>
        <table>
          <Columns names={["Name", "In", "Type", "Description"]} />
          <tbody>
            {props.params.map((p) => (
              <tr key={`${p.in}:${p.name}`}>
                <td class="name">
                  <code>{p.name}</code> {p.required && <span class="req">required</span>}
                </td>
                <td>{p.in}</td>
                <td>{p.type}</td>
                <td>
                  {withCode(p.description)}
                  <Rules rules={p.rules} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}

function Response({ r, op }: { r: ResponseView; op: OperationView }) {
  return (
    <details class="res" open={r.status.startsWith("2")}>
      <summary>
        <span class="status">{r.status}</span> {r.description}
        {r.body && (
          <>
            {" "}
            <code>{r.body.mediaType}</code>
          </>
        )}
      </summary>
      {(r.headers.length > 0 || r.body) && (
        <div>
          {r.headers.length > 0 && (
            <ul>
              {r.headers.map((h) => (
                <li key={h.name}>
                  Header <code>{h.name}</code> ({h.type}): {h.description}
                </li>
              ))}
            </ul>
          )}
          {r.body && <Body body={r.body} label={`${op.method} ${op.path} ${r.status} answer`} />}
        </div>
      )}
    </details>
  );
}

function Body(props: { body: BodyView; label: string; request?: boolean }) {
  return (
    <>
      {props.body.shapes.map((shape, i) => (
        <div key={i}>
          {shape.label && <p class="shape">One of the shapes: {shape.label}</p>}
          {shape.fields.length === 0
            ? <p class="rules">An object; its fields are not described here.</p>
            : (
              <Fields
                fields={shape.fields}
                label={shape.label ? `${props.label}, ${shape.label}` : props.label}
                request={props.request}
              />
            )}
          {shape.closed && <p class="rules">Fields other than these are refused.</p>}
        </div>
      ))}
    </>
  );
}

function Fields(props: { fields: FieldRow[]; label: string; request?: boolean }) {
  return (
    <Scroll label={props.label}>
      <table>
        <Columns names={["Field", "Type", "Description"]} />
        <tbody>
          {props.fields.map((f) => (
            <tr key={f.name}>
              <td class="name">
                <code>{f.name}</code> {props.request
                  ? f.required && <span class="req">required</span>
                  : !f.required && <span class="opt">optional</span>}
              </td>
              <td>{f.type}</td>
              <td>
                {withCode(f.description)}
                <Rules rules={f.rules} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

function Columns({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>{names.map((n) => <th key={n} scope="col">{n}</th>)}</tr>
    </thead>
  );
}

/** Who may call: the ways to authenticate, or none. */
function authWords(op: OperationView): string {
  if (op.auth.length === 0) return "none";
  const ways = op.auth.join("; or ");
  return op.anonymous ? `none needed where the publisher allows it; or ${ways}` : ways;
}

/** Text with its backquoted spans as code (Preact escapes both). */
function withCode(text: string) {
  return text.split("`").map((part, i) => i % 2 ? <code key={i}>{part}</code> : part);
}

function Rules({ rules }: { rules: string[] }) {
  if (rules.length === 0) return null;
  return <div class="rules">{rules.join("; ")}</div>;
}
