/**
 * The OpenAPI document as a page to read (`GET /api/docs`): made on the server from the document
 * itself, one HTML file with its style inline and no script, so it loads nothing, from here or
 * elsewhere, and shows the same offline. Light or dark as the reader's system is.
 */

import type { ApiPaths, Operation } from "./openapi-schemas.js";

type Schema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  security: Record<string, string[]>[];
  info: { title: string; description: string; version: string };
  paths: ApiPaths<Schema>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
}

// No script at all, and nothing loaded: the page is its own HTML and inline style (its icon an empty data: URL, so that no /favicon.ico is asked for).
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `:root{color-scheme:light;--bg:#f8fafc;--panel:#fff;--line:#e2e8f0;--text:#111827;--muted:#64748b;--link:#1d4ed8;--code:#f1f5f9}
@media (prefers-color-scheme:dark){:root{color-scheme:dark;--bg:#0b1120;--panel:#111827;--line:#1f2937;--text:#e5e7eb;--muted:#9ca3af;--link:#93c5fd;--code:#1e293b}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--text);background:var(--bg)}
a{color:var(--link)}
a:focus-visible{outline:2px solid var(--link);outline-offset:2px}
header{padding:16px 20px;border-bottom:1px solid var(--line);background:var(--panel)}
h1{margin:0 0 4px;font-size:20px}
h2{margin:0 0 6px;font-size:16px;overflow-wrap:anywhere}
h3{margin:14px 0 6px;font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.layout{display:grid;grid-template-columns:minmax(0,1fr)}
nav{padding:12px 20px;border-bottom:1px solid var(--line)}
nav ul{list-style:none;margin:0;padding:0}
nav li{margin:3px 0;overflow-wrap:anywhere}nav a{display:flex;gap:6px}nav .method{min-width:3.6em;flex:none}
main{padding:12px 20px;min-width:0}
section{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:14px 16px;margin:0 0 14px}
code,pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:var(--code);border-radius:4px;padding:0 3px;overflow-wrap:anywhere}
pre{background:var(--code);border-radius:6px;padding:8px 10px;margin:6px 0;overflow-x:auto;max-width:100%}
.method{display:inline-block;min-width:4.2em;font:600 12px ui-monospace,monospace;text-transform:uppercase;color:var(--muted)}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;border-top:1px solid var(--line);padding:4px 8px 4px 0}
th{font-weight:600;color:var(--muted)}
dt{font-weight:600;margin-top:6px}
dd{margin:0 0 0 16px}summary{cursor:pointer;color:var(--muted)}
.muted{color:var(--muted)}
@media (min-width:900px){.layout{grid-template-columns:300px minmax(0,1fr)}nav{border-bottom:0;border-right:1px solid var(--line);position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto}}`;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A description's text, its `code spans` as code. */
function prose(text: string | undefined): string {
  return escape(text ?? "").replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** `post-api-threads-id-fork` for `POST /api/threads/{id}/fork`. */
const anchor = (method: string, path: string) => `${method}${path.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`;
const schemaAnchor = (name: string) => `schema-${name}`;
const LONG_SCHEMA_LINES = 60;
const REF = /&#34;#\/components\/schemas\/(\w+)&#34;/g;

/** A JSON Schema as indented JSON, each `$ref` a link to the schema it names. */
function schemaView(schema: Schema | undefined): string {
  if (schema === undefined) return "";
  const text = escape(JSON.stringify(schema, null, 2));
  const linked = text.replace(
    REF,
    (_, name: string) => `&#34;<a href="#${schemaAnchor(name)}">#/components/schemas/${name}</a>&#34;`,
  );
  // A long schema (AG-UI's RunAgentInput) is folded, so that the page can be read through.
  const open = text.split("\n").length <= LONG_SCHEMA_LINES ? " open" : "";
  return `<details${open}><summary>schema</summary><pre>${linked}</pre></details>`;
}

function contentView(content: Record<string, { schema?: Schema }> | undefined): string {
  return Object.entries(content ?? {})
    .map(([type, { schema }]) => `<p class="muted">${escape(type)}</p>${schemaView(schema)}`)
    .join("");
}

function operationView(method: string, path: string, op: Operation<Schema>): string {
  const params = op.parameters ?? [];
  const rows = params
    .map(
      (p) =>
        `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}${p.required ? ", required" : ""}</td><td><code>${escape(JSON.stringify(p.schema ?? {}))}</code></td><td>${prose(p.description)}</td></tr>`,
    )
    .join("");
  const responses = Object.entries(op.responses)
    .map(([status, r]) => `<dt>${escape(status)}</dt><dd>${prose(r.description)}${contentView(r.content)}</dd>`)
    .join("");
  return `<section id="${anchor(method, path)}"><h2><span class="method">${escape(method)}</span> <code>${escape(path)}</code></h2>
<p>${prose(op.summary)}</p>${
    rows
      ? `<h3>Parameters</h3><div class="table"><table><thead><tr><th>name</th><th>in</th><th>schema</th><th>description</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : ""
  }${op.requestBody ? `<h3>Request body</h3>${contentView(op.requestBody.content)}` : ""}<h3>Responses</h3><dl>${responses}</dl></section>`;
}

export function openApiPage(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const links = operations
    .map(
      ({ path, method }) =>
        `<li><a href="#${anchor(method, path)}"><span class="method">${escape(method)}</span> <code>${escape(path)}</code></a></li>`,
    )
    .join("");
  const schemaLinks = Object.keys(doc.components.schemas)
    .map((name) => `<li><a href="#${schemaAnchor(name)}">${escape(name)}</a></li>`)
    .join("");
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, s]) => `<section id="${schemaAnchor(name)}"><h2>${escape(name)}</h2>${schemaView(s)}</section>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(doc.info.title)} · API</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><header><h1>${escape(doc.info.title)}</h1><p>${prose(doc.info.description)} Version ${escape(doc.info.version)}; the document itself: <a href="../openapi.json">openapi.json</a>.</p></header>
<div class="layout"><nav aria-label="Endpoints"><h3>Endpoints</h3><ul>${links}</ul><h3>Schemas</h3><ul>${schemaLinks}</ul></nav>
<main>${operations.map(({ path, method, op }) => operationView(method, path, op)).join("\n")}
<h3>Schemas</h3>${schemas}</main></div></body></html>`;
}
