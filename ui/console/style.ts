/** The console's stylesheet (inline, so pages need no second request and work from the binary). */
export const CONSOLE_CSS = `
body{max-width:none;margin:0;padding:0;background:#f8fafc}
.top{display:flex;align-items:center;gap:1rem;padding:.6rem 1.2rem;background:#0f172a;color:#f8fafc}
.top a{color:#f8fafc}.top .brand{font-weight:700;text-decoration:none;margin-right:auto}
.top form{margin:0}.top button{background:none;border:1px solid #94a3b8;color:#f8fafc;padding:.2rem .7rem}
.wrap{display:flex;gap:2rem;max-width:78rem;margin:0 auto;padding:1.2rem}
nav.side{flex:0 0 13rem}nav.side ul{list-style:none;margin:0;padding:0}
nav.side a{display:block;padding:.35rem .6rem;border-radius:6px;text-decoration:none;color:#1e293b}
nav.side a[aria-current=page]{background:#e2e8f0;font-weight:600}
main{flex:1;min-width:0}
@media (max-width:50rem){.wrap{flex-direction:column}nav.side{flex:none}nav.side ul{display:flex;flex-wrap:wrap;gap:.2rem}}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:1rem 1.2rem;margin:0 0 1.2rem}
.card h2{margin-top:0;font-size:1.15rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;margin-bottom:1.2rem}
.figure{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:.8rem 1rem}
.figure b{display:block;font-size:1.6rem}.figure span{color:#475569}
label{display:block;margin:.7rem 0 .2rem;font-weight:600}
.hint{color:#475569;font-size:.9rem;margin:.1rem 0 .4rem;font-weight:400}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],input[type=search],
input[type=datetime-local],input[type=date],select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #94a3b8;border-radius:6px;width:100%;max-width:32rem;box-sizing:border-box;background:#fff}
textarea{min-height:5rem}
.check{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;margin:.6rem 0}
.check input{margin-top:.35rem}
button,.button{font:inherit;padding:.45rem 1rem;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button.danger{background:#b91c1c;border-color:#b91c1c}
.inline{display:inline}.row{display:flex;gap:.6rem;flex-wrap:wrap;align-items:center}
.notice{padding:.6rem .9rem;border-radius:8px;margin:0 0 1rem;background:#ecfdf5;border:1px solid #6ee7b7}
.problem{padding:.6rem .9rem;border-radius:8px;margin:0 0 1rem;background:#fef2f2;border:1px solid #fca5a5;color:#7f1d1d}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.warning{padding:.6rem .9rem;border-radius:8px;margin:0 0 .8rem;background:#fffbeb;border:1px solid #f59e0b;color:#78350f}
.secret{font-family:ui-monospace,monospace;background:#fffbeb;border:1px solid #f59e0b;padding:.6rem;border-radius:6px;word-break:break-all}
table{width:100%;background:#fff}th{font-size:.85rem;color:#334155}td{vertical-align:top}
.scroll{overflow-x:auto;position:relative}caption.left{text-align:left;padding:.8rem 0 .3rem}
.tag{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;border:1px solid #cbd5e1}
.OBSERVE{background:#ecfdf5;border-color:#6ee7b7}.PAYWALL{background:#fffbeb;border-color:#fcd34d}.BLOCKED{background:#fef2f2;border-color:#fca5a5}
.muted{color:#475569}.small{font-size:.85rem}
.copy{display:flex;gap:.4rem;align-items:center;margin:.2rem 0}.copy code{flex:1;overflow-wrap:anywhere}
.copy button{padding:.1rem .5rem;font-size:.85rem}
.copy.block{align-items:flex-start}.copy.block pre{flex:1;min-width:0;margin:0;background:#f8fafc;border:1px solid #e2e8f0;border-radius:6px;padding:.6rem;overflow:auto;font-size:.82rem}
.copy.block pre code{background:none;padding:0}
.steps{list-style:none;padding:0}.steps li{padding:.35rem 0}.steps .mark{display:inline-block;width:1.2rem;font-weight:700}
.steps .done .mark{color:#047857}.steps .done a{color:#475569;text-decoration:line-through}.steps .todo .mark{color:#475569}
.chart{width:100%;height:auto;display:block}.peak-line{stroke:#cbd5e1;stroke-dasharray:4 3}.axis{stroke:#94a3b8}.bar{fill:#1d4ed8}.bar-alarm{fill:#b91c1c}
.tick{font-size:11px;fill:#475569}.line{fill:none;stroke-width:2}.l0{stroke:#1d4ed8}.l1{stroke:#b45309}.l2{stroke:#047857}.l3{stroke:#7c3aed}
.s0{fill:#1d4ed8}.s1{fill:#b45309}.s2{fill:#047857}.s3{fill:#7c3aed}.s4{fill:#be185d}.s5{fill:#0e7490}.s6{fill:#4d7c0f}
figure.stacked{margin:0}
.legend{display:flex;gap:1rem;font-size:.85rem;flex-wrap:wrap}.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:middle}
.preview{border:1px solid #e2e8f0;border-radius:10px;padding:1rem;margin-top:1rem}
.pager{display:flex;gap:1rem;margin-top:.8rem}
.progress{height:.8rem;background:#e2e8f0;border-radius:999px;overflow:hidden;max-width:32rem}
.progress span{display:block;height:100%;background:#1d4ed8}
.progress.near span{background:#b45309}.progress.full span{background:#b91c1c}
.spend-row{display:grid;grid-template-columns:minmax(8rem,14rem) 1fr;gap:.3rem 1rem;align-items:center;margin:.5rem 0}
.spend-row .limit{grid-column:2}.spend-row b{grid-row:span 2}
.limit{display:flex;flex-direction:column;gap:.1rem}
summary{white-space:nowrap;cursor:pointer}details.defaults summary{white-space:normal}
.auth{max-width:28rem;margin:3rem auto;padding:0 1rem}
.tabs{display:flex;gap:.3rem;list-style:none;margin:0 0 1rem;padding:0;border-bottom:1px solid #cbd5e1}
.tabs a{display:block;padding:.35rem .9rem;border:1px solid transparent;border-bottom:none;border-radius:6px 6px 0 0;text-decoration:none}
.tabs a[aria-current=page]{background:#fff;border-color:#cbd5e1;font-weight:600;margin-bottom:-1px}
.tag.ok{background:#ecfdf5;border-color:#6ee7b7}.tag.err{background:#fef2f2;border-color:#fca5a5}.tag.quote{background:#fffbeb;border-color:#fcd34d}
tr.read td{background:#eff6ff}tr.read td:first-child{box-shadow:inset 3px 0 #1d4ed8}
.hbars{margin-bottom:1rem}.num{text-align:right;font-variant-numeric:tabular-nums}.nowrap{white-space:nowrap}
.ua{display:block;max-width:16rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.filter-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.6rem 1rem;align-items:start}
.filter-grid label{margin-top:0}.filter-grid .actions{grid-column:1/-1}.page-read{min-width:12rem;overflow-wrap:anywhere}
.filter{align-items:flex-end}.filter label{margin-top:0}.filter select{width:auto}
.readers{margin:.3rem 0;padding-left:1.2rem}.prompt{max-width:28rem;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 .6rem}.facts dt{font-weight:600;color:#334155}.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
blockquote.message{margin:.3rem 0 .8rem;padding:.5rem .8rem;border-left:3px solid #cbd5e1;background:#f8fafc;white-space:pre-wrap;overflow-wrap:anywhere}
.decide{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1.2rem;border-top:1px solid #e2e8f0;padding-top:.4rem}
.passages{padding-left:1.2rem}.passages h3{margin:.8rem 0 .1rem;font-size:1rem}.url{margin:0;overflow-wrap:anywhere}
pre.raw{background:#f8fafc;border:1px solid #e2e8f0;border-radius:6px;padding:.6rem;overflow:auto;max-height:24rem;font-size:.8rem}
.qr svg{display:block;width:100%;max-width:14rem;height:auto}ol.codes{columns:2;font-family:ui-monospace,monospace}
table.audit{min-width:46rem}
.confirm,.domain-proof{overflow-wrap:anywhere}fieldset{min-width:0}.check code,td code{overflow-wrap:anywhere}
`;
