/**
 * The playground's style, served as `playground/style.css`. The graph's own style comes inside its
 * SVG (the compiler's `toSvg`), and applies to the whole page: the class names it uses (`node`,
 * `item`, `edge`, `cluster`, `badge`, `selected`, `current`, ...) are not used here for anything else.
 */
export const STYLE = `
*{box-sizing:border-box}
html,body{height:100%}
body{margin:0;font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;background:#f1f5f9;display:flex;flex-direction:column}
header{display:flex;align-items:baseline;gap:14px;padding:8px 16px;background:#0f172a;color:#f8fafc}
header h1{font-size:17px;margin:0}header .kind{color:#94a3b8}
#status{margin-left:auto;color:#cbd5e1}#status.error{color:#fca5a5}
main{flex:1;min-height:0;display:grid;gap:8px;padding:8px;grid-template-columns:230px minmax(320px,1fr) minmax(380px,1.25fr);grid-template-rows:minmax(0,1fr) 290px}
main>nav,main>section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;display:flex;flex-direction:column;min-height:0;min-width:0}
#threads{grid-row:1/3}#timeline{grid-column:2/4;flex-direction:row}
.bar{display:flex;align-items:center;gap:8px;padding:6px 10px;border-bottom:1px solid #e2e8f0}
.bar h2,.bar h3{font-size:13px;margin:0;text-transform:uppercase;letter-spacing:.04em;color:#475569}
.bar h3{text-transform:none;letter-spacing:0;font-size:14px;color:#0f172a}
button{font:inherit;cursor:pointer;border:1px solid #cbd5e1;background:#f8fafc;border-radius:6px;padding:3px 9px}
button:hover{background:#e2e8f0}button:disabled{cursor:default;opacity:.5}
#new-thread,#send,#fork{background:#2563eb;border-color:#2563eb;color:#fff}#new-thread:hover,#send:hover,#fork:hover{background:#1d4ed8}
#new-thread{margin-left:auto}
#thread-list{list-style:none;margin:0;padding:4px;overflow:auto;flex:1}
#thread-list li{display:flex;align-items:stretch;border-radius:6px;margin-bottom:2px}
#thread-list li.active{background:#dbeafe}
#thread-list .open{flex:1;min-width:0;text-align:left;border:0;background:none;display:flex;flex-direction:column;padding:5px 7px}
#thread-list .id{font-family:ui-monospace,monospace;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#thread-list .meta,#turns .meta{color:#64748b;font-size:11.5px}
#thread-list .delete{border:0;background:none;color:#94a3b8;font-size:16px;padding:0 8px}#thread-list .delete:hover{color:#dc2626}
#messages{flex:1;overflow:auto;padding:12px;display:flex;flex-direction:column;gap:8px}
.msg{max-width:86%;padding:7px 11px;border-radius:12px;white-space:pre-wrap;word-break:break-word}
.msg.user{align-self:flex-end;background:#2563eb;color:#fff;border-bottom-right-radius:3px}
.msg.agent{align-self:flex-start;background:#f1f5f9;border:1px solid #e2e8f0;border-bottom-left-radius:3px}
.msg.streaming .text::after{content:"\\258D";color:#2563eb;animation:blink 1s steps(2) infinite}
.msg.note{background:none;border:1px dashed #cbd5e1;color:#64748b;font-style:italic}
.msg.error{background:#fef2f2;border-color:#fecaca;color:#b91c1c}
@keyframes blink{50%{opacity:0}}
.empty{color:#64748b;margin:8px 10px}
#composer{display:flex;gap:6px;padding:8px;border-top:1px solid #e2e8f0}
#input{flex:1;resize:none;font:inherit;padding:6px 8px;border:1px solid #cbd5e1;border-radius:6px}
#lit-label{font-family:ui-monospace,monospace;font-size:12px;color:#dc2626;margin-left:auto}
#lit-label:not(:empty)::before{content:"\\25CF running: ";color:#64748b;font-family:system-ui,sans-serif}
#lit-label.idle:not(:empty)::before{content:"at: "}
#graph-box{flex:1;overflow:auto;background:#fff}
#graph-box [data-node].passed rect:first-of-type{stroke:#f59e0b;stroke-width:2.6}
#graph-box [data-node].lit rect:first-of-type{stroke:#dc2626;stroke-width:4.5;filter:drop-shadow(0 0 6px rgba(220,38,38,.6))}
.node-list{list-style:none;margin:0;padding:8px;columns:2}.node-list li{padding:2px 6px;border-radius:4px}
.node-list li.passed{background:#fef3c7}.node-list li.lit{background:#fecaca;font-weight:600}
#timeline>.turns-pane{width:300px;display:flex;flex-direction:column;border-right:1px solid #e2e8f0;min-height:0}
#turns{list-style:none;margin:0;padding:4px;overflow:auto;flex:1}
#turns button{width:100%;display:grid;grid-template-columns:28px 1fr auto;gap:6px;text-align:left;border:0;background:none;padding:4px 6px}
#turns li.selected button{background:#fef3c7}#turns li.interrupted .said{text-decoration:line-through;color:#64748b}
#turns .seq{font-weight:700;color:#475569;text-align:right}#turns .said{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#turn-detail{flex:1;overflow:auto;min-width:0}
#turn-detail h4{margin:10px 10px 4px;font-size:12px;color:#475569}
table.changes{border-collapse:collapse;margin:0 10px;font-size:12px}
table.changes th{text-align:left;color:#64748b;font-weight:600;padding:2px 10px 2px 0}
table.changes td{padding:2px 10px 2px 0;font-family:ui-monospace,monospace;vertical-align:top;max-width:420px;word-break:break-word}
table.changes tr.added td.after,table.changes tr.changed td.after{color:#15803d}table.changes td.before{color:#b91c1c}
.memory{margin:0 10px}.frame h4{margin:6px 0 2px}
.memory dl{display:grid;grid-template-columns:max-content 1fr;gap:1px 12px;margin:0;font-size:12px}
.memory dd{margin:0;font-family:ui-monospace,monospace;word-break:break-word}
.memory pre{font-size:11.5px;background:#f8fafc;border:1px solid #e2e8f0;padding:6px;overflow:auto;max-height:320px}
`;
