/**
 * Optional extraction check on text nobody on the team wrote: BBC News articles from
 * ../shared/data/bbc (see its README; research use only, never copied into the repository), each
 * served in three generator shapes (Hugo, Sphinx, WordPress) with section headings every three
 * paragraphs, half of them worded like clutter ("Related work", "Sharing the costs", "Polling
 * results") so that their ids are too. Folio against plain Readability: title, author, body F1
 * and sections lost. Skips with a message when the folder is absent.
 * Run: deno task eval:extract:bbc [--per-topic N]   (default 20 articles per topic)
 */
import {
  folioReading,
  type Gold,
  readabilityReading,
  score,
  type SystemScore,
} from "../tests/fixtures/extraction_eval.ts";
import { line, tally } from "./targets.ts";
import { againstReadability } from "./eval_extract_targets.ts";

const DIR = new URL("../../shared/data/bbc/", import.meta.url);
const TOPICS = ["business", "entertainment", "politics", "sport", "tech"];
const CLUTTERISH = [
  "Related work",
  "Sharing the costs",
  "Polling results",
  "Follow-up questions",
  "Comments from analysts",
  "Ratings and reviews",
  "Feedback from fans",
  "Shared memory",
];
const AUTHORS = ["Ann Lee", "Tomás Ortega", "Priya Natarajan", "Owen Price", "Mariana Costa"];

try {
  await Deno.stat(DIR);
} catch {
  console.log(`No ${DIR.pathname}: the BBC set is optional; nothing to measure.`);
  Deno.exit(0);
}
const i = Deno.args.indexOf("--per-topic");
const perTopic = i >= 0 ? Number(Deno.args[i + 1]) : 20;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

interface Article {
  title: string;
  sections: { heading: string | null; paras: string[] }[];
}

function sectioned(title: string, paras: string[], n: number): Article {
  const sections: Article["sections"] = [];
  for (let p = 0; p < paras.length; p += 3) {
    const k = p / 3;
    const heading = p === 0
      ? null
      : k % 2 === 1
      ? CLUTTERISH[(n + k) % CLUTTERISH.length]
      : paras[p].split(/\s+/).slice(0, 4).join(" ").replace(/[.,;:]$/, "");
    sections.push({ heading, paras: paras.slice(p, p + 3) });
  }
  return { title, sections };
}

function goldBody(a: Article): string {
  return a.sections.flatMap((s) => [...(s.heading ? [`## ${s.heading}`] : []), ...s.paras])
    .join("\n\n");
}

const p = (paras: string[]) => paras.map((x) => `<p>${esc(x)}</p>`).join("\n");

function hugo(a: Article, author: string): string {
  const body = a.sections.map((s) =>
    (s.heading ? `<h2 id="${slug(s.heading)}">${esc(s.heading)}</h2>` : "") + p(s.paras)
  ).join("\n");
  return `<!DOCTYPE html><html><head><title>${esc(a.title)} | Wire Notes</title>
<meta property="og:title" content="${esc(a.title)}"><meta name="author" content="${author}">
</head><body><header class="header"><nav class="nav"><div class="logo"><a href="/">Wire Notes</a></div></nav></header>
<main class="main"><article class="post-single"><header class="post-header"><h1 class="post-title">${
    esc(a.title)
  }</h1><div class="post-meta">${author}</div></header>
<div class="toc"><details><summary>Table of Contents</summary></details></div>
<div class="post-content">${body}</div>
<footer class="post-footer"><ul class="share-buttons"><li><a href="#">Share on X</a></li></ul></footer></article></main></body></html>`;
}

function sphinx(a: Article): string {
  const body = a.sections.map((s) =>
    s.heading
      ? `<section id="${slug(s.heading)}"><h2>${esc(s.heading)}<a class="headerlink" href="#${
        slug(s.heading)
      }">¶</a></h2>${p(s.paras)}</section>`
      : p(s.paras)
  ).join("\n");
  return `<!DOCTYPE html><html><head><title>${
    esc(a.title)
  } — Wire 1.0 documentation</title></head><body>
<nav class="wy-nav-side"><a href="index.html" class="icon icon-home">Wire</a></nav>
<div role="main" class="document"><div itemprop="articleBody"><section id="${slug(a.title)}"><h1>${
    esc(a.title)
  }<a class="headerlink" href="#">¶</a></h1>${body}</section></div></div>
<footer><div role="contentinfo"><p>© Copyright 2024.</p></div></footer></body></html>`;
}

function wordpress(a: Article, author: string): string {
  const body = a.sections.map((s) =>
    (s.heading
      ? `<h2 class="wp-block-heading" id="h-${slug(s.heading)}">${esc(s.heading)}</h2>`
      : "") + p(s.paras)
  ).join("\n");
  const ld = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Article",
    headline: a.title,
    author: { "@type": "Person", name: author },
  });
  return `<!DOCTYPE html><html><head><title>${esc(a.title)} &#8211; Wire Notes</title>
<meta property="og:site_name" content="Wire Notes"><script type="application/ld+json">${ld}</script></head>
<body><header id="masthead" class="site-header"><p class="site-title"><a href="/" rel="home">Wire Notes</a></p></header>
<main id="main"><article class="post hentry"><header class="entry-header"><h1 class="entry-title">${
    esc(a.title)
  }</h1></header><div class="entry-content">${body}
<div class="sharedaddy sd-sharing-enabled"><div class="sd-social sd-sharing"><h3 class="sd-title">Share this:</h3></div></div>
<div id="jp-relatedposts" class="jp-relatedposts"><h3>Related</h3><p><a href="/x">Another story</a></p></div>
</div></article><div id="comments" class="comments-area"><h2 class="comments-title">One comment</h2><p>Great read.</p></div></main></body></html>`;
}

const pages: { name: string; html: string; gold: Gold }[] = [];
for (const topic of TOPICS) {
  const files = [...Deno.readDirSync(new URL(`${topic}/`, DIR))].map((e) => e.name).sort()
    .slice(0, perTopic);
  for (const [n, f] of files.entries()) {
    const bytes = await Deno.readFile(new URL(`${topic}/${f}`, DIR));
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder("latin1").decode(bytes);
    }
    const [title, ...rest] = text.split(/\n/).map((l) => l.trim());
    // The set's paragraphs are long; two sentences each make room for sections.
    const sentences = rest.filter(Boolean).flatMap((x) => x.split(/(?<=[.!?"])\s+(?=[A-Z"])/));
    const paras: string[] = [];
    for (let k = 0; k < sentences.length; k += 2) paras.push(sentences.slice(k, k + 2).join(" "));
    if (paras.length < 4) continue;
    const article = sectioned(title, paras, n);
    const author = AUTHORS[n % AUTHORS.length];
    const gold = (a: string): Gold => ({
      lang: "en",
      kind: "news",
      title,
      author: a,
      date: null,
      body: goldBody(article),
    });
    pages.push({ name: `hugo/${topic}/${f}`, html: hugo(article, author), gold: gold(author) });
    pages.push({ name: `sphinx/${topic}/${f}`, html: sphinx(article), gold: gold("") });
    pages.push({ name: `wp/${topic}/${f}`, html: wordpress(article, author), gold: gold(author) });
  }
}

const folio = score(pages, folioReading);
const readability = score(pages, readabilityReading);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const row = (name: string, s: SystemScore) =>
  `| ${name} | ${pct(s.title)} | ${pct(s.author)} | ${s.bodyF1Mean.toFixed(3)} | ${
    s.bodyF1Min.toFixed(3)
  } | ${s.sectionsLost} of ${s.sections} |`;
console.log(`${pages.length} pages (${perTopic} BBC articles per topic, three shapes)\n`);
console.log("| system | title | author | body F1 mean | body F1 min | sections lost |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
console.log(row("Folio", folio));
console.log(row("Readability 0.6.0", readability));
console.log();
const checks = againstReadability(folio, readability, ["title", "author"]);
for (const c of checks) console.log(line(c));
console.log(tally(checks));
const misses = folio.pages.filter((x) => !x.title || !x.author || x.sectionsLost > 0);
for (const m of misses.slice(0, 15)) {
  console.log(
    `  ${m.name}: title=${m.title ? "ok" : JSON.stringify(m.got.title)} author=${
      m.author ? "ok" : JSON.stringify(m.got.author)
    } sections lost ${m.sectionsLost}`,
  );
}
