/**
 * The stylesheet of a publisher's pages (inline: no second request, no external fonts). Only
 * `:root` carries the publisher's branding, already checked by brand.ts; the text holds no `"`,
 * `&` or `<`, which Preact would escape inside `<style>`.
 */
import { type Palette, SYSTEM_FONT } from "./brand.ts";

/** The text face when the publisher names no font: fonts the reader's system already has. */
const TEXT_FONT = "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif";

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:17px/1.55 var(--font);color:#111827;background:#fff;display:flex;flex-direction:column;min-height:100vh}
a{color:var(--ink);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--ink);outline-offset:2px;border-radius:2px}
img{max-width:100%}
.skip{position:absolute;left:.75rem;top:-3rem;z-index:10;padding:.5rem .9rem;background:#111827;color:#fff;border-radius:0 0 6px 6px;font-weight:600}
.skip:focus{top:0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.container{width:100%;max-width:72rem;margin:0 auto;padding:0 1.25rem}
.masthead{border-top:6px solid var(--brand);border-bottom:1px solid #e5e7eb;background:#fff}
.masthead .container{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem 2rem;padding-top:1rem;padding-bottom:1rem}
.brand{display:inline-flex;align-items:center;gap:.6rem;color:#111827;text-decoration:none;font-weight:800;font-size:1.6rem;letter-spacing:-.02em;line-height:1.1}
.brand img{display:block;height:2.75rem;width:auto;max-width:16rem;object-fit:contain}
.site-nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0;padding:0;list-style:none}
.site-nav a{display:inline-block;padding:.35rem 0;color:#1f2937;text-decoration:none;font-weight:600;font-size:.95rem;border-bottom:2px solid transparent}
.site-nav a:hover,.site-nav a[aria-current=page]{border-bottom-color:var(--brand);color:#111827}
main{flex:1;padding:2rem 0 3rem}
main:focus{outline:none}
h1,h2,h3{line-height:1.2;letter-spacing:-.015em;color:#111827}
.page-head{margin:0 0 1.75rem;padding-bottom:1.25rem;border-bottom:1px solid #e5e7eb}
.page-head h1{font-size:clamp(1.8rem,4vw,2.5rem);margin:0 0 .4rem}
.page-head p{margin:0;color:#4b5563;font-size:1.1rem;max-width:44rem}
.eyebrow{display:block;margin:0 0 .35rem;font-size:.8rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:var(--ink)}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:3rem;align-items:start}
@media (max-width:56rem){.layout{grid-template-columns:minmax(0,1fr);gap:2rem}}
.section-title{font-size:.85rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:#374151;margin:0 0 .75rem;padding-bottom:.5rem;border-bottom:2px solid #111827}
.stories{list-style:none;margin:0;padding:0}
.story{padding:1.25rem 0;border-bottom:1px solid #e5e7eb}
.story:first-child{padding-top:0}
.story h2,.story h3{margin:.1rem 0 .4rem;font-size:1.3rem}
.story.lead h2{font-size:clamp(1.6rem,3.4vw,2.1rem)}
.story.lead .summary{font-size:1.12rem}
.story h2 a,.story h3 a{color:#111827;text-decoration:none}
.story h2 a:hover,.story h3 a:hover{color:var(--ink);text-decoration:underline}
.summary{margin:0 0 .5rem;color:#374151;font-family:var(--text-font)}
.meta{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .9rem;margin:0;font-size:.88rem;color:#4b5563}
.meta a{color:#4b5563}
.access{display:inline-block;padding:.05rem .5rem;border-radius:999px;border:1px solid #d1d5db;font-size:.78rem;font-weight:600;color:#374151;background:#f9fafb}
.access.PAYWALL{border-color:#f59e0b;background:#fffbeb;color:#78350f}
.access.BLOCKED{border-color:#fca5a5;background:#fef2f2;color:#7f1d1d}
.tags{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;margin:0;padding:0}
.tags a{display:inline-block;padding:.15rem .6rem;border-radius:999px;background:#f3f4f6;color:#1f2937;text-decoration:none;font-size:.85rem}
.tags a:hover{background:#e5e7eb;text-decoration:underline}
.side{display:flex;flex-direction:column;gap:2rem}
.side section{scroll-margin-top:1rem}
.topics{list-style:none;margin:0;padding:0}
.topics li{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0;border-bottom:1px solid #f3f4f6}
.topics a{text-decoration:none;font-weight:600}.topics a:hover{text-decoration:underline}
.count{color:#4b5563;font-variant-numeric:tabular-nums;font-size:.9rem}
.books{list-style:none;margin:0;padding:0}
.books li{padding:.55rem 0;border-bottom:1px solid #f3f4f6}
.books a{font-weight:600;text-decoration:none}.books a:hover{text-decoration:underline}
.books span{display:block;font-size:.88rem;color:#4b5563}
.for-agents{padding:1rem 1.1rem;border-radius:10px;background:#f9fafb;border:1px solid #e5e7eb;font-size:.92rem}
.for-agents p{margin:.3rem 0}
.empty{padding:2rem 1.25rem;border:1px dashed #d1d5db;border-radius:10px;color:#4b5563;text-align:center}
.empty p{margin:.25rem 0}
.pager{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-top:1.75rem;font-weight:600}
.pager a{display:inline-block;padding:.45rem .95rem;border:1px solid #d1d5db;border-radius:8px;text-decoration:none}
.pager a:hover{border-color:var(--ink)}
.pager .here{color:#4b5563;font-weight:400;font-size:.92rem}
.article{max-width:40rem;margin:0 auto}
.article-head{margin-bottom:1.75rem}
.article-head h1{font-size:clamp(1.85rem,4.2vw,2.5rem);margin:.2rem 0 .8rem;letter-spacing:-.025em}
.standfirst{font-family:var(--text-font);font-size:1.25rem;line-height:1.5;color:#374151;margin:0 0 1rem}
.byline{display:flex;flex-wrap:wrap;gap:.25rem .9rem;font-size:.92rem;color:#4b5563;padding:.75rem 0;border-top:1px solid #e5e7eb;border-bottom:1px solid #e5e7eb}
.byline strong{color:#111827}
.crumbs{font-size:.9rem;margin:0 0 .5rem}
.body{font-family:var(--text-font);font-size:1.18rem;line-height:1.7;color:#1f2937}
.body p{margin:0 0 1.15em}
.body h2{font-family:var(--font);font-size:1.55rem;margin:1.8em 0 .6em}
.body h3{font-family:var(--font);font-size:1.25rem;margin:1.5em 0 .5em}
.teaser p:last-child::after{content:' \\2026'}
.box{margin:2rem 0;padding:1.4rem 1.5rem;border:1px solid #e5e7eb;border-top:4px solid var(--brand);border-radius:10px;background:#f9fafb}
.box h2{margin:0 0 .6rem;font-size:1.3rem}
.box p{margin:.55rem 0}
.price{font-size:1.05rem}
.price strong{font-size:1.6rem;letter-spacing:-.01em;font-variant-numeric:tabular-nums}
.box ol{margin:.5rem 0;padding-left:1.3rem}.box li{margin:.3rem 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;background:#eef0f3;padding:.1rem .35rem;border-radius:4px;overflow-wrap:anywhere}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:1rem}
.button{display:inline-block;padding:.55rem 1rem;border-radius:8px;border:1px solid var(--brand);background:var(--brand);color:var(--on-brand);font-weight:600;text-decoration:none}
.button:hover{text-decoration:underline}
.button.secondary{background:#fff;color:var(--ink);border-color:#d1d5db}
.notice{border-top-color:#b91c1c}
.reason{font-size:.82rem;color:#4b5563;margin-top:1rem}
.article-foot{margin-top:2.5rem;padding-top:1rem;border-top:1px solid #e5e7eb;display:flex;flex-direction:column;gap:.9rem}
.chapters{margin:0;padding:0;list-style:none;counter-reset:none}
.chapters li{display:flex;gap:1rem;align-items:baseline;padding:.7rem 0;border-bottom:1px solid #e5e7eb}
.chapters .no{flex:0 0 2.5rem;color:#4b5563;font-variant-numeric:tabular-nums;font-size:.9rem}
.chapters a{font-size:1.1rem;font-weight:600;text-decoration:none}.chapters a:hover{text-decoration:underline}
.chapter-nav{display:flex;justify-content:space-between;gap:1rem;margin-top:2rem}
.chapter-nav a{display:block;max-width:48%;padding:.7rem 1rem;border:1px solid #e5e7eb;border-radius:8px;text-decoration:none}
.chapter-nav a:hover{border-color:var(--ink)}
.chapter-nav span{display:block;font-size:.8rem;color:#4b5563;text-transform:uppercase;letter-spacing:.06em}
.chapter-nav .next{margin-left:auto;text-align:right}
.site-foot{background:#f9fafb;border-top:1px solid #e5e7eb;font-size:.9rem;color:#374151}
.site-foot .container{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.75rem 2rem;padding-top:1.5rem;padding-bottom:1.5rem}
.site-foot p{margin:0}
.site-foot ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0;padding:0;list-style:none}
@media (max-width:36rem){body{font-size:16px}.brand{font-size:1.35rem}.box{padding:1.1rem}.body{font-size:1.1rem}}
@media print{.masthead nav,.skip,.site-foot ul,.pager{display:none}}
`;

/** The stylesheet for a publisher's palette and font stack. */
export function siteCss(colors: Palette, font: string | null): string {
  const root = `:root{--brand:${colors.brand};--on-brand:${colors.onBrand};--ink:${colors.ink};` +
    `--font:${font ?? SYSTEM_FONT};` +
    `--text-font:${font ?? TEXT_FONT}}`;
  return root + CSS;
}
