/**
 * A form made from a tool's JSON Schema: one field per property, its control chosen by the
 * property's type (text, number, a select for an enum or an optional boolean, a checkbox for a
 * required one, a JSON text area for objects, arrays and anything else), required fields marked.
 * What the form reads back is only what was filled in: the server checks it against the schema,
 * so a missing or wrong argument is said in its words. A tool with no schema (a plain function)
 * gets one JSON text area for all its arguments (`freeForm`).
 */
import { el } from "./dom.js";

export interface ToolSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
}

/** How a field's text becomes an argument: JSON for selects and text areas, else by type. */
type Reader = "string" | "number" | "json" | "checkbox";

const kindOf = (p: PropertySchema): string | undefined => (Array.isArray(p.type) ? p.type[0] : p.type);

function control(id: string, p: PropertySchema, required: boolean): { input: HTMLElement; reader: Reader } {
  const kind = kindOf(p);
  if (Array.isArray(p.enum) || (kind === "boolean" && !required)) {
    const values = Array.isArray(p.enum) ? p.enum : [true, false];
    const options = values.map((v) => el("option", { value: JSON.stringify(v), text: String(v) }));
    const unset = required ? null : el("option", { value: "", text: "(not given)" });
    return { input: el("select", { id }, [unset, ...options]), reader: "json" };
  }
  if (kind === "boolean") return { input: el("input", { id, type: "checkbox" }), reader: "checkbox" };
  if (kind === "integer" || kind === "number")
    return {
      input: el("input", { id, type: "number", step: kind === "integer" ? "1" : "any", inputmode: "decimal" }),
      reader: "number",
    };
  if (kind === "string") return { input: el("input", { id, type: "text", spellcheck: "false" }), reader: "string" };
  const hint = kind === "array" ? "[ ]" : kind === "object" ? "{ }" : "JSON";
  return { input: el("textarea", { id, rows: "3", spellcheck: "false", placeholder: hint }), reader: "json" };
}

/** A field: its argument's name and type above its control, and what the schema says of it under it. */
function field(id: string, label: (HTMLElement | null)[], input: HTMLElement, about: string | undefined): HTMLElement {
  const hint = about === undefined ? null : el("span", { class: "hint", id: `${id}-about`, text: about });
  if (hint) input.setAttribute("aria-describedby", hint.id);
  return el("div", { class: "tool-field" }, [el("label", { for: id }, label), input, hint]);
}

/** JSON text as a value; text that is not JSON throws, saying whose it is. */
function parsed(text: string, whose: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${whose}: not JSON`);
  }
}

export interface ToolForm {
  fields: HTMLElement[];
  /** The arguments filled in; a text area that is not JSON throws, naming its argument. */
  read(): Record<string, unknown> | unknown[];
}

/**
 * The form of a tool with no schema (a plain function, which only the agent's code calls): its
 * arguments as JSON text, an array (its argument list, as the code passes them) or an object (its
 * one argument), as the server takes them.
 */
export function freeForm(idPrefix: string): ToolForm {
  const id = `${idPrefix}-list`;
  const input = el("textarea", { id, rows: "3", spellcheck: "false", placeholder: "[ ]" }) as HTMLTextAreaElement;
  input.value = "[]";
  const label = [el("code", { text: "arguments" }), el("span", { class: "type", text: " JSON" })];
  const about =
    "No schema: a JSON array of its arguments, as the agent's code passes them (or an object, its one argument)";
  return {
    fields: [field(id, label, input, about)],
    read() {
      const args = parsed(input.value.trim() || "[]", "arguments");
      if (args === null || typeof args !== "object") throw new Error("arguments: not a JSON array or object");
      return args as Record<string, unknown> | unknown[];
    },
  };
}

export function toolForm(schema: ToolSchema, idPrefix: string): ToolForm {
  const required = new Set(schema.required ?? []);
  const readers: { name: string; input: HTMLElement; reader: Reader }[] = [];
  const fields = Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const id = `${idPrefix}-${name.replace(/[^\w-]/g, "_")}`;
    const must = required.has(name);
    const { input, reader } = control(id, p, must);
    readers.push({ name, input, reader });
    if (must) input.setAttribute("aria-required", "true");
    const type = kindOf(p) ?? "JSON";
    const label = [
      el("code", { text: name }),
      must ? el("span", { class: "required", title: "required", text: " *" }) : null,
      el("span", { class: "type", text: ` ${Array.isArray(p.enum) ? "one of" : type}` }),
    ];
    return field(id, label, input, p.description || undefined);
  });
  return {
    fields,
    read() {
      const args: Record<string, unknown> = {};
      for (const { name, input, reader } of readers) {
        if (reader === "checkbox") {
          args[name] = (input as HTMLInputElement).checked;
          continue;
        }
        const text = (input as HTMLInputElement).value;
        if (text.trim() === "") continue;
        if (reader === "string") args[name] = text;
        else if (reader === "number") args[name] = Number(text);
        else args[name] = parsed(text, `argument '${name}'`);
      }
      return args;
    },
  };
}
