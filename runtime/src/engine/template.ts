/**
 * The original's variable syntax in text fields: `$name`, `${name}`, optional segments `?{ … }`
 * and the escapes `\$`, `\?{`, `\}`. Templates are parsed once per distinct text and rendered
 * against the visible variables; nothing in a text is ever read as an assignment.
 */
import type { JsonValue } from "@autograms/graph";

type Piece = { kind: "text"; text: string } | { kind: "var"; name: string };
type Segment = Piece | { kind: "optional"; pieces: Piece[] };

export interface Template {
  segments: Segment[];
  /** True when the text holds no variables at all (rendering returns it as is). */
  constant: boolean;
}

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NAME_START = /[\p{L}_]/u;
const NAME_CHAR = /[\p{L}\p{N}_]/u;

export function parseTemplate(text: string): Template {
  const segments: Segment[] = [];
  let pieces: Piece[] = [];
  let optionalStart = -1;
  let buf = "";
  const flush = () => {
    if (buf) pieces.push({ kind: "text", text: buf });
    buf = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      if (text[i + 1] === "$" || text[i + 1] === "}") {
        buf += text[i + 1];
        i += 2;
        continue;
      }
      if (text.startsWith("?{", i + 1)) {
        buf += "?{";
        i += 3;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === "?" && text[i + 1] === "{") {
      if (optionalStart >= 0)
        throw new TemplateError("'?{' inside another '?{ … }' (they do not nest; write \\?{ for the text)", i);
      flush();
      segments.push(...pieces);
      pieces = [];
      optionalStart = i;
      i += 2;
      continue;
    }
    if (c === "}" && optionalStart >= 0) {
      flush();
      segments.push({ kind: "optional", pieces });
      pieces = [];
      optionalStart = -1;
      i++;
      continue;
    }
    if (c === "$") {
      const next = text[i + 1];
      if (next === " ") throw new TemplateError("a space after '$' is not allowed (write \\$ for a dollar sign)", i);
      if (next === "{") {
        const end = text.indexOf("}", i + 2);
        const name = end < 0 ? "" : text.slice(i + 2, end);
        if (end < 0 || !isName(name)) {
          throw new TemplateError(`'\${' must enclose a variable name and '}' (write \\$ for a dollar sign)`, i);
        }
        flush();
        pieces.push({ kind: "var", name });
        i = end + 1;
        continue;
      }
      if (next !== undefined && NAME_START.test(next)) {
        let j = i + 1;
        while (j < text.length && NAME_CHAR.test(text[j]!)) j++;
        flush();
        pieces.push({ kind: "var", name: text.slice(i + 1, j) });
        i = j;
        continue;
      }
      // At the end, before a digit or '.', or before punctuation, '$' is just a dollar sign.
    }
    buf += c;
    i++;
  }
  if (optionalStart >= 0) throw new TemplateError("'?{' without its closing '}'", optionalStart);
  flush();
  segments.push(...pieces);
  return { segments, constant: segments.every((s) => s.kind === "text") };
}

function isName(name: string): boolean {
  if (!name || !NAME_START.test(name[0]!)) return false;
  for (const ch of name) if (!NAME_CHAR.test(ch)) return false;
  return true;
}

/** How a value reads inside text: strings as they are, arrays and objects as JSON. */
export function valueText(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export type Lookup = (name: string) => JsonValue | undefined;

export type Rendered = { ok: true; text: string } | { ok: false; missing: string[] };

/** Fills the template; a variable that is undefined or null outside `?{ … }` is an error. */
export function renderTemplate(template: Template, lookup: Lookup): Rendered {
  let text = "";
  const missing: string[] = [];
  for (const seg of template.segments) {
    if (seg.kind === "text") text += seg.text;
    else if (seg.kind === "var") {
      const v = lookup(seg.name);
      if (v === undefined || v === null) missing.push(seg.name);
      else text += valueText(v);
    } else {
      let part = "";
      let complete = true;
      for (const p of seg.pieces) {
        if (p.kind === "text") part += p.text;
        else {
          const v = lookup(p.name);
          if (v === undefined || v === null) {
            complete = false;
            break;
          }
          part += valueText(v);
        }
      }
      if (complete) text += part;
    }
  }
  return missing.length ? { ok: false, missing: [...new Set(missing)] } : { ok: true, text };
}

/** The variables the template must find (those outside `?{ … }`, which may be missing). */
export function requiredVariables(template: Template): string[] {
  return template.segments.flatMap((seg) => (seg.kind === "var" ? [seg.name] : []));
}
