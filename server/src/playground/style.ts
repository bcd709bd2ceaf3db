/**
 * The playground's style, served as `playground/style.css`. The graph's own style comes inside its
 * SVG (the compiler's `toSvg`), and applies to the whole page: the class names it uses (`node`,
 * `item`, `edge`, `cluster`, `badge`, `selected`, `current`, ...) are not used here for anything else.
 * Colours are variables, so the dark scheme only sets them again: the system's
 * (`prefers-color-scheme`), unless the header's theme button chose one (`data-theme` on the root).
 * The graph's drawing is made for a light background: in the dark it is shown inverted (its hues
 * turned back), so it goes dark with the page. Under 1000 px the panels show one at a time,
 * switched by the bar under the header.
 */

import { PAGES_STYLE } from "./pages-style.js";

/** The dark scheme's colours, set by the system's preference or by the theme button alike. */
const DARK = `color-scheme:dark;--bg:#0b1120;--panel:#111827;--line:#1f2937;--line2:#374151;--text:#e5e7eb;--muted:#9ca3af;--head:#cbd5e1;
--strong:#f8fafc;--btn:#1f2937;--btn-hover:#374151;--accent:#3b82f6;--accent-hover:#2563eb;--active:#1e3a8a;--agent-msg:#1f2937;--code-bg:#0f172a;
--lit:#7f1d1d;--lit-edge:#f87171;--passed:#713f12;--selected:#312e81;--ok:#4ade80;--bad:#f87171;--err-bg:#450a0a;--err-line:#7f1d1d;
--graph-bg:#141414;--graph-filter:invert(.92) hue-rotate(180deg)`;

export const STYLE = `
:root{--bg:#f1f5f9;--panel:#fff;--line:#e2e8f0;--line2:#cbd5e1;--text:#111827;--muted:#64748b;--head:#475569;--strong:#0f172a;
--btn:#f8fafc;--btn-hover:#e2e8f0;--accent:#2563eb;--accent-hover:#1d4ed8;--active:#dbeafe;--agent-msg:#f1f5f9;--code-bg:#f8fafc;
--lit:#fee2e2;--lit-edge:#dc2626;--passed:#fef3c7;--selected:#e0e7ff;--ok:#15803d;--bad:#b91c1c;--err-bg:#fef2f2;--err-line:#fecaca;
--graph-bg:#fff;--graph-filter:none;color-scheme:light}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
:root[data-theme=dark]{${DARK}}
*{box-sizing:border-box}
html,body{height:100%}
body{margin:0;font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--text);background:var(--bg);display:flex;flex-direction:column;overflow:hidden}
header{display:flex;align-items:baseline;gap:14px;padding:8px 16px;background:#0f172a;color:#f8fafc;min-width:0}
header h1{font-size:17px;margin:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}header .kind{color:#94a3b8}
#status{margin-left:auto;color:#cbd5e1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}#status.error{color:#fca5a5}
#panels{display:none}
main{flex:1;min-height:0;display:grid;gap:8px;padding:8px;grid-template-columns:230px minmax(300px,1fr) minmax(360px,1.25fr);grid-template-rows:minmax(0,1fr) 290px}
main>nav,main>section{background:var(--panel);border:1px solid var(--line);border-radius:8px;display:flex;flex-direction:column;min-height:0;min-width:0}
#threads{grid-row:1/3}#timeline{grid-column:2/4;flex-direction:row}
.bar{display:flex;align-items:center;gap:8px;padding:6px 10px;border-bottom:1px solid var(--line);min-width:0;flex-wrap:wrap}
.bar h2,.bar h3{font-size:13px;margin:0;text-transform:uppercase;letter-spacing:.04em;color:var(--head)}
.bar h3{text-transform:none;letter-spacing:0;font-size:14px;color:var(--strong)}
button,select{font:inherit;color:inherit;cursor:pointer;border:1px solid var(--line2);background:var(--btn);border-radius:6px;padding:3px 9px}
button:hover{background:var(--btn-hover)}button:disabled{cursor:default;opacity:.5}
:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
#new-thread,#send,#fork{background:var(--accent);border-color:var(--accent);color:#fff}#new-thread:hover,#send:hover,#fork:hover{background:var(--accent-hover)}
#new-thread,#regenerate{margin-left:auto}
#stop{background:#b91c1c;border-color:#b91c1c;color:#fff}
[role=tab][aria-selected=true]{background:var(--active);border-color:var(--accent)}
#thread-search{margin:6px 8px 2px;padding:4px 8px;font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line2);border-radius:6px;min-width:0}
#thread-list{list-style:none;margin:0;padding:4px;overflow:auto;flex:1}
#thread-list .title{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#thread-list .state{font-size:10.5px;border-radius:8px;padding:0 6px;margin-left:4px;border:1px solid var(--line2)}
#thread-list .state.running{color:#fff;background:var(--accent);border-color:var(--accent)}#thread-list .state.ended{color:var(--muted)}#thread-list .state.stale{color:var(--bad);border-color:currentColor}
#thread-list .rename,#thread-list .migrate{border:0;background:none;color:var(--muted);padding:0 4px}#thread-list .migrate{color:var(--bad)}
#thread-list li{display:flex;align-items:stretch;border-radius:6px;margin-bottom:2px}
#thread-list li.active{background:var(--active)}
#thread-list .open{flex:1;min-width:0;text-align:left;border:0;background:none;display:flex;flex-direction:column;padding:5px 7px}
#thread-list .id{font-family:ui-monospace,monospace;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#thread-list .meta,#turns .meta{color:var(--muted);font-size:11.5px}
#thread-list .delete{border:0;background:none;color:var(--muted);font-size:16px;padding:0 8px}#thread-list .delete:hover{color:#dc2626}
#messages{flex:1;overflow:auto;padding:12px;display:flex;flex-direction:column;gap:8px}
.msg{max-width:86%;padding:7px 11px;border-radius:12px;white-space:pre-wrap;word-break:break-word}
.msg.user{align-self:flex-end;background:var(--accent);color:#fff;border-bottom-right-radius:3px}
.msg.agent{align-self:flex-start;background:var(--agent-msg);border:1px solid var(--line);border-bottom-left-radius:3px}
.msg.streaming .text::after{content:"\\258D";color:var(--accent);animation:blink 1s steps(2) infinite}
.msg.note{background:none;border:1px dashed var(--line2);color:var(--muted);font-style:italic}
.msg.error{background:var(--err-bg);border-color:var(--err-line);color:var(--bad)}
@keyframes blink{50%{opacity:0}}
.tool-call{align-self:flex-start;max-width:86%;min-width:0;border:1px dashed var(--line2);border-radius:8px;font-size:12px}
.tool-call>summary{cursor:pointer;padding:3px 9px;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tool-call>summary code{color:var(--text)}.tool-call.failed>summary .tool-label{color:var(--bad)}
.empty{color:var(--muted);margin:8px 10px}
#composer{display:flex;gap:6px;padding:8px;border-top:1px solid var(--line)}
#input{flex:1;min-width:0;resize:none;font:inherit;color:inherit;background:var(--panel);padding:6px 8px;border:1px solid var(--line2);border-radius:6px}
#file-select{max-width:40%;min-width:0}
#lit-label{font-family:ui-monospace,monospace;font-size:12px;color:var(--lit-edge);margin-left:auto;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
#lit-label:not(:empty)::before{content:"\\25CF running: ";color:var(--muted);font-family:system-ui,sans-serif}
#lit-label.idle:not(:empty)::before{content:"at: "}
#graph-box{flex:1;overflow:auto;background:var(--graph-bg);color:#111827}#graph-box>*{filter:var(--graph-filter)}
#api-docs{color:#cbd5e1;flex:none}#api-docs:hover{color:#f8fafc}
#theme,#palette-open{border-color:#475569;background:#1e293b;color:#f8fafc;padding:1px 8px;flex:none}#theme:hover,#palette-open:hover{background:#334155}
#agents{display:flex;gap:2px;min-width:0;overflow-x:auto}#agents[hidden]{display:none}
#agents a{color:#cbd5e1;text-decoration:none;padding:1px 8px;border-radius:6px;white-space:nowrap}#agents a:hover{background:#334155}
#agents a[aria-current=page]{color:#fff;background:#1e3a8a;font-weight:600}
#palette{position:fixed;inset:0;z-index:10;display:flex;align-items:flex-start;justify-content:center;padding-top:12vh;background:rgb(15 23 42/.45)}#palette[hidden]{display:none}
#palette .box{display:flex;flex-direction:column;width:min(560px,calc(100vw - 24px));max-height:70vh;background:var(--panel);border:1px solid var(--line2);border-radius:10px;box-shadow:0 12px 32px rgb(0 0 0/.3)}
#palette-input{font:inherit;font-size:15px;color:inherit;background:none;border:0;border-bottom:1px solid var(--line);padding:10px 12px;border-radius:10px 10px 0 0}
#palette-list{list-style:none;margin:0;padding:4px;overflow:auto}#palette-empty{margin:0;padding:10px 12px;color:var(--muted)}
#palette-list [role=option]{display:flex;gap:8px;align-items:baseline;padding:6px 10px;border-radius:6px;cursor:pointer;min-width:0}
#palette-list [aria-selected=true]{background:var(--active);outline:1px solid var(--accent)}
#palette-list .kind{color:var(--muted);font-size:11.5px;min-width:48px}#palette-list .label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#palette-list .detail{margin-left:auto;color:var(--muted);font-family:ui-monospace,monospace;font-size:11.5px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#raw-graph-label{font-size:12px;color:var(--muted);white-space:nowrap;display:inline-flex;align-items:center;gap:3px}
#graph-box [data-node]{cursor:pointer}
#graph-box [data-node].passed rect:first-of-type{stroke:#f59e0b;stroke-width:2.6}
#graph-box [data-node].lit rect:first-of-type{stroke:#dc2626;stroke-width:4.5;filter:drop-shadow(0 0 6px rgba(220,38,38,.6))}
#graph-box [data-node].chosen rect:first-of-type{stroke:#4f46e5;stroke-width:3.5}
.node-list{list-style:none;margin:0;padding:8px;columns:2}.node-list li{padding:2px 6px;border-radius:4px}
.node-list li.passed{background:#fef3c7}.node-list li.lit{background:#fecaca;font-weight:600}
#source-box{flex:1;overflow:auto;background:var(--code-bg)}
ol.src{list-style:none;margin:0;padding:4px 0;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;min-width:max-content}
.src-line{display:flex;padding-right:10px;border-left:3px solid transparent}
.src-line .ln{width:44px;flex:none;text-align:right;padding-right:10px;color:var(--muted);user-select:none}
.src-line code{white-space:pre;font:inherit}
.src-line.has-node{cursor:pointer}.src-line.has-node:hover{background:var(--btn-hover)}
.src-line.passed{background:var(--passed)}
.src-line.lit{background:var(--lit);border-left-color:var(--lit-edge)}
.src-line.selected{box-shadow:inset 0 0 0 1px var(--accent);background:var(--selected)}
#node-info{padding:6px 10px;border-bottom:1px solid var(--line);font-size:12px;max-height:40%;overflow:auto}
#node-info .node{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}#node-info .node code{font-weight:600}
#node-info .action{color:var(--muted)}#node-info .instruction{white-space:pre-wrap;word-break:break-word;margin:2px 0 6px}
#timeline>.turns-pane{width:300px;display:flex;flex-direction:column;border-right:1px solid var(--line);min-height:0}
#turns{list-style:none;margin:0;padding:4px;overflow:auto;flex:1}
#turns button{width:100%;display:grid;grid-template-columns:28px minmax(0,1fr) auto;gap:6px;text-align:left;border:0;background:none;padding:4px 6px}
#turns li.selected button{background:var(--passed)}#turns li.interrupted .said{text-decoration:line-through;color:var(--muted)}
#turns .seq{font-weight:700;color:var(--head);text-align:right}#turns .said{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#turn-detail{flex:1;overflow:auto;min-width:0}
.usage{color:var(--muted);font-size:11.5px}#thread-usage{margin-left:auto}.turn-usage{margin:4px 0}
#turns .usage{grid-column:2/4}
#turn-detail h4{margin:10px 10px 4px;font-size:12px;color:var(--head)}
.table-wrap{overflow-x:auto;margin:0 10px}
table.changes{border-collapse:collapse;font-size:12px}
table.changes th{text-align:left;color:var(--muted);font-weight:600;padding:2px 10px 2px 0}
table.changes td{padding:2px 10px 2px 0;font-family:ui-monospace,monospace;vertical-align:top;max-width:420px;word-break:break-word}
table.changes tr.added td.after,table.changes tr.changed td.after{color:var(--ok)}table.changes td.before{color:var(--bad)}
.calls-box{margin:0 10px}
.call{border:1px solid var(--line);border-radius:6px;margin:4px 0;background:var(--panel)}
.call>summary{cursor:pointer;padding:4px 8px;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.call>summary code{font-weight:600}
.call h5{margin:6px 8px 2px;font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.call ol{margin:4px 8px;padding-left:18px}
.call .messages{list-style:none;padding:0}.call .messages li{margin:4px 0}
.call .role{font-size:11px;color:var(--muted);text-transform:uppercase}
.call-text{margin:2px 8px 6px;padding:6px;font:11.5px/1.45 ui-monospace,monospace;background:var(--code-bg);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;word-break:break-word;max-height:260px;overflow:auto}
.call-text.error{color:var(--bad)}
.choices li.chosen{font-weight:600;color:var(--ok)}
.memory{margin:0 10px}.frame h4{margin:6px 0 2px}
.memory dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:1px 12px;margin:0;font-size:12px}
.memory dd{margin:0;font-family:ui-monospace,monospace;word-break:break-word}
.memory pre{font-size:11.5px;background:var(--code-bg);border:1px solid var(--line);padding:6px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word}
.memory .edit-var{border:0;background:none;color:var(--muted);padding:0 4px;cursor:pointer;font-size:12px}
.what-if{margin:6px 10px;padding:6px 8px;border:1px solid var(--line2);border-radius:6px}.what-if h4{margin:0 0 4px}
.what-if .side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:8px}.what-if h5{margin:0 0 2px;font-size:11.5px;color:var(--muted)}
.what-if p{margin:2px 0;font-size:12.5px;word-break:break-word}.what-if .said{color:var(--muted)}
${PAGES_STYLE}
#experiments{display:none;flex:1;min-height:0;margin:8px;background:var(--panel);border:1px solid var(--line);border-radius:8px;flex-direction:column}
body[data-page=experiments] #experiments{display:flex}body[data-page=experiments] main,body[data-page=experiments] #panels{display:none}
#experiments-close{margin-left:auto}
.experiments-pane{flex:1;min-height:0;display:grid;grid-template-columns:260px minmax(0,1fr)}
#experiment-list{list-style:none;margin:0;padding:4px;overflow:auto;border-right:1px solid var(--line)}
#experiment-list li.active button{background:var(--active)}
#experiment-list button{width:100%;text-align:left;border:0;background:none;display:flex;flex-wrap:wrap;gap:2px 8px;padding:5px 7px}
#experiment-list .id{font-family:ui-monospace,monospace;font-weight:600}#experiment-list .meta{flex-basis:100%;color:var(--muted);font-size:11.5px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#experiment-list .state.failed,.case.failed>details>summary,.failure{color:var(--bad)}#experiment-list .state.passed,.case.passed>details>summary{color:var(--ok)}
#experiment-detail{overflow:auto;padding:4px 12px 12px;min-width:0}
#experiment-detail h3{margin:8px 0 2px;font-size:15px}#experiment-detail h4{margin:12px 0 4px;font-size:12px;color:var(--head);text-transform:uppercase;letter-spacing:.04em}
#experiment-detail .meta,#experiment-detail .note{color:var(--muted);margin:2px 0;word-break:break-word}
#experiment-detail ol{margin:0;padding-left:18px}.cases>li{margin:4px 0}.case summary{cursor:pointer;font-weight:600}
.case-turns>li{margin:6px 0;padding:4px 8px;border-left:3px solid var(--line2)}.case-turns>li.failed{border-left-color:var(--bad);background:var(--err-bg)}
.case-turns p{margin:1px 0;word-break:break-word}.at-source{color:var(--accent)}
.changes h4{text-transform:none;letter-spacing:0;font-size:13px}.changes .change{margin:6px 0}.changes p{margin:2px 0}
.side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:8px;margin:4px 0 8px}
.side-by-side h5{margin:0 0 2px;font-size:11.5px;color:var(--muted);word-break:break-word}
ol.path{font-size:12px}ol.path li{word-break:break-word}ol.path .at{color:var(--muted);margin-left:6px}ol.path li.parts{background:var(--lit)}
.settings{border-bottom:1px solid var(--line);font-size:12px}.settings>summary{cursor:pointer;padding:4px 10px;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.settings-form{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:end;padding:4px 10px 8px}.settings-form label{display:flex;flex-direction:column;gap:2px;color:var(--muted);min-width:0}
.settings-form input,.settings-form select{font:inherit;color:var(--text);background:var(--panel);border:1px solid var(--line2);border-radius:6px;padding:3px 6px;max-width:100%}.settings-form input{width:96px}
.settings-actions{display:flex;gap:6px}.settings-note{flex-basis:100%;margin:0;color:var(--muted)}.settings-note:empty{display:none}.settings-note.error{color:var(--bad)}
#turns .turn-settings{grid-column:2/4}
@media (max-width:999px){
header{flex-wrap:wrap;row-gap:4px}header .kind{display:none}#agents{order:1;flex-basis:100%}
.experiments-pane{grid-template-columns:minmax(0,1fr);grid-template-rows:minmax(0,35%) minmax(0,1fr)}
#experiment-list{border-right:0;border-bottom:1px solid var(--line)}
#panels{display:flex;gap:4px;padding:6px 8px 0;overflow-x:auto}
#panels button{flex:1;min-width:0}
body[data-panel=threads] #panels [data-show=threads],body[data-panel=chat] #panels [data-show=chat],
body[data-panel=code] #panels [data-show=code],body[data-panel=timeline] #panels [data-show=timeline]{background:var(--active);border-color:var(--accent)}
main{grid-template-columns:minmax(0,1fr);grid-template-rows:minmax(0,1fr)}
main>nav,main>section{display:none;grid-row:1;grid-column:1}
body[data-panel=threads] #threads,body[data-panel=chat] #chat,body[data-panel=code] #code,body[data-panel=timeline] #timeline{display:flex}
#timeline{flex-direction:column}#timeline>.turns-pane{width:auto;max-height:40%;border-right:0;border-bottom:1px solid var(--line)}
.msg{max-width:94%}
}
`;
