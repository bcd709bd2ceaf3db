/**
 * The style of the studio's pages beside the playground (runs, metrics): shown one at a time in
 * place of the playground's panels, by the body's `data-page`; the same colour variables, so the
 * dark scheme applies as it does to the rest (style.ts). Under 1000 px a page's parts stack.
 */
export const PAGES_STYLE = `
#pages{display:flex;gap:4px}#pages button{border-color:#475569;background:#1e293b;color:#f8fafc;padding:1px 8px}
#pages button[aria-current=true]{background:var(--accent);border-color:var(--accent)}
.page{display:none;flex:1;min-height:0;margin:8px;background:var(--panel);border:1px solid var(--line);border-radius:8px;flex-direction:column}
body[data-page=runs] main,body[data-page=metrics] main,body[data-page=tools] main,body[data-page=runs] #panels,body[data-page=metrics] #panels,body[data-page=tools] #panels{display:none!important}
body[data-page=runs] #runs-page,body[data-page=metrics] #metrics-page,body[data-page=tools] #tools-page{display:flex}
.page input[type=search]{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line2);border-radius:6px;padding:3px 8px;min-width:0}
.page .check{display:inline-flex;gap:4px;align-items:center;color:var(--muted)}
.runs-body{flex:1;min-height:0;display:grid;grid-template-columns:minmax(280px,380px) minmax(0,1fr)}
.runs-pane{overflow:auto;border-right:1px solid var(--line)}
#run-list{list-style:none;margin:0;padding:4px}
#run-list button{width:100%;display:flex;flex-direction:column;align-items:flex-start;gap:1px;text-align:left;border:0;background:none;padding:5px 7px;border-radius:6px}
#run-list li.selected button{background:var(--active)}
#run-list .said{font-weight:600;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#run-list .meta{color:var(--muted);font-size:11.5px}#run-list .run-error{color:var(--bad);font-size:11.5px;word-break:break-word}
.state{font-size:10.5px;border-radius:8px;padding:0 6px;border:1px solid var(--line2)}
.state.committed{color:var(--ok)}.state.failed,.state.abandoned{color:var(--bad);border-color:currentColor}.state.stopped{color:var(--muted)}
.state.running{color:#fff;background:var(--accent);border-color:var(--accent)}
#runs-more{margin:6px}
#run-detail{overflow:auto;min-width:0}
.run-spans>p{margin:6px 10px}
.span-rows{list-style:none;margin:0 10px;padding:0;border:1px solid var(--line);border-radius:6px}
.span-row{display:grid;grid-template-columns:minmax(160px,40%) minmax(0,1fr) 64px;align-items:center;border-bottom:1px solid var(--line)}
.span-row:last-child{border-bottom:0}.span-row.selected{background:var(--selected)}
.span-name{border:0;background:none;text-align:left;display:flex;gap:6px;align-items:baseline;min-width:0;border-radius:0}
.span-name .label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.span-name .kind{font-size:10px;text-transform:uppercase;color:var(--muted);flex:none}
.span-bar{position:relative;height:14px;margin:0 6px;background:var(--code-bg);border-radius:3px}
.bar-fill{position:absolute;top:2px;bottom:2px;border-radius:2px;background:var(--line2)}
.kind-turn .bar-fill{background:var(--head)}.kind-node .bar-fill{background:var(--accent)}
.kind-model .bar-fill,.kind-decision .bar-fill{background:#a855f7}.kind-tool .bar-fill{background:#f59e0b}
.span-ms{font-size:11px;color:var(--muted);text-align:right;padding-right:6px}
.span-detail{margin:8px 10px}.span-detail h4{margin:4px 0}.span-detail h5{margin:8px 0 2px;font-size:11px;color:var(--muted);text-transform:uppercase}
.span-detail .call-text{margin:2px 0}.span-detail button{margin:4px 6px 0 0}
#metrics-body{overflow:auto;padding:0 10px 10px}#metrics-body h4{margin:12px 0 4px;font-size:12px;color:var(--head)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:8px;margin-top:10px}
.card{border:1px solid var(--line);border-radius:8px;padding:8px;display:flex;flex-direction:column}
.card .figure{font-size:20px;font-weight:700;color:var(--strong)}.card .label{color:var(--muted);font-size:11.5px}
.chart{list-style:none;margin:0;padding:0;display:flex;gap:3px;height:160px;align-items:stretch;overflow-x:auto}
.chart li{flex:1;min-width:18px;display:flex;flex-direction:column;align-items:center}
.chart .stack{flex:1;width:100%;display:flex;flex-direction:column;justify-content:flex-end;background:var(--code-bg);border-radius:3px}
.chart .ok{background:var(--accent)}.chart .bad{background:var(--bad)}
.chart .tick{font-size:9.5px;color:var(--muted);white-space:nowrap;overflow:hidden;max-width:100%}
table.agents td{font-family:inherit}
#tools-page .where{color:var(--muted);font-size:11.5px}
.tools-body{flex:1;min-height:0;display:grid;grid-template-columns:minmax(220px,320px) minmax(0,1fr)}
.tools-pane{overflow:auto;border-right:1px solid var(--line)}
#tool-list{list-style:none;margin:0;padding:4px}
#tool-list button{width:100%;display:flex;flex-direction:column;align-items:flex-start;gap:1px;text-align:left;border:0;background:none;padding:5px 7px;border-radius:6px}
#tool-list li.selected button{background:var(--active)}
#tool-list .meta{color:var(--muted);font-size:11.5px;text-align:left}
#tool-detail{overflow:auto;min-width:0;padding:0 12px 12px}#tool-detail h3{margin:10px 0 2px;font-family:ui-monospace,monospace}
#tool-detail .about{margin:0 0 8px;color:var(--muted)}
#tool-form{display:flex;flex-direction:column;gap:10px;max-width:560px}
.tool-field{display:flex;flex-direction:column;gap:3px}.tool-field .type{color:var(--muted);font-size:11.5px}
.tool-field .required{color:var(--bad);font-weight:700}.tool-field .hint{color:var(--muted);font-size:11.5px}
.tool-field input:not([type=checkbox]),.tool-field textarea,.tool-field select{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line2);border-radius:6px;padding:4px 8px;min-width:0}
.tool-field textarea{font-family:ui-monospace,monospace;resize:vertical}.tool-field input[type=checkbox]{align-self:flex-start}
#tool-run{align-self:flex-start;background:var(--accent);border-color:var(--accent);color:#fff}#tool-run:hover{background:var(--accent-hover)}
#tool-answer h4{margin:12px 0 4px;font-size:12px}#tool-answer h4.ok{color:var(--ok)}#tool-answer h4.failed{color:var(--bad)}
.tool-output{margin:0;padding:8px;background:var(--code-bg);border:1px solid var(--line);border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-word;max-width:100%}
.tool-output.failed{background:var(--err-bg);border-color:var(--err-line);color:var(--bad)}
@media (max-width:999px){
header{flex-wrap:wrap}
.runs-body{grid-template-columns:minmax(0,1fr);grid-template-rows:minmax(0,40%) minmax(0,1fr)}
.runs-pane{border-right:0;border-bottom:1px solid var(--line)}
.tools-body{grid-template-columns:minmax(0,1fr);grid-template-rows:minmax(0,35%) minmax(0,1fr)}
.tools-pane{border-right:0;border-bottom:1px solid var(--line)}
.span-row{grid-template-columns:minmax(0,55%) minmax(0,1fr) 52px}
}
`;
