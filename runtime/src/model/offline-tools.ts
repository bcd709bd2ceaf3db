/**
 * How the offline model uses tools without understanding language: it calls a tool only when the
 * user's text names the tool and then gives every required argument as `key=value`
 * (`lookup planet=Mars fact=moons`, `calculator expression="2 + 95"`). Anything less plainly put
 * gets no call, so the offline model never guesses arguments.
 */
import type { ToolCall, ToolChatMessage, ToolCompletionRequest, ToolDefinition } from "./types.js";

interface Schema {
  properties?: Record<string, { type?: unknown }>;
  required?: unknown;
}

/** The tools a request lets the model call: none for "none", one for a forced name. */
export function callableTools(req: ToolCompletionRequest): ToolDefinition[] {
  const choice = req.toolChoice ?? "auto";
  if (choice === "none") return [];
  if (typeof choice === "object") return req.tools.filter((t) => t.name === choice.name);
  return req.tools;
}

/** The calls the user's text plainly asks for, in the order it names the tools (a tool named twice is called twice). */
export function plainCalls(user: string, tools: readonly ToolDefinition[]): ToolCall[] {
  const named = tools
    .flatMap((tool) => namedAt(user, tool.name).map((at) => ({ tool, at })))
    .sort((a, b) => a.at - b.at);
  const calls: ToolCall[] = [];
  named.forEach(({ tool, at }, i) => {
    // A tool's arguments are the pairs between its name and the next tool's.
    const text = user.slice(at + tool.name.length, named[i + 1]?.at ?? user.length);
    const args = argumentsOf(text, (tool.parameters ?? {}) as Schema);
    if (args) calls.push({ id: `offline_call_${calls.length + 1}`, name: tool.name, arguments: JSON.stringify(args) });
  });
  return calls;
}

/** Where the text names the tool as a word of its own (any case). */
function namedAt(text: string, name: string): number[] {
  const lower = text.toLowerCase();
  const want = name.toLowerCase();
  const isNameChar = (c: string | undefined) => c !== undefined && /[\w-]/.test(c);
  const found: number[] = [];
  for (let at = lower.indexOf(want); at >= 0; at = lower.indexOf(want, at + 1)) {
    if (!isNameChar(lower[at - 1]) && !isNameChar(lower[at + want.length])) found.push(at);
  }
  return found;
}

const PAIR = /(?:^|\s)([A-Za-z_][\w-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S+)/g;

/** The `key=value` pairs the schema declares, or null when a required one is missing. */
function argumentsOf(text: string, schema: Schema): Record<string, unknown> | null {
  const properties = schema.properties;
  const args: Record<string, unknown> = {};
  for (const [, key, written] of text.matchAll(PAIR)) {
    if (properties && !Object.hasOwn(properties, key!)) continue;
    args[key!] = valueOf(written!, properties?.[key!]?.type);
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.every((k) => Object.hasOwn(args, String(k))) ? args : null;
}

/** A value as written, typed as the schema asks when it reads as that type (else the tool says what is wrong). */
function valueOf(written: string, type: unknown): unknown {
  let text: string;
  if (written.startsWith('"')) {
    try {
      text = JSON.parse(written) as string;
    } catch {
      text = written.slice(1, -1);
    }
  } else if (written.startsWith("'")) text = written.slice(1, -1);
  else text = written.replace(/[.,;!?]+$/, "");
  if ((type === "number" || type === "integer") && text.trim() !== "" && Number.isFinite(Number(text)))
    return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** The calls answered since the user's message, each with its result message, in order. */
export function answeredCalls(messages: readonly ToolChatMessage[]): { call: ToolCall; result: string }[] {
  const calls = new Map<string, ToolCall>();
  const out: { call: ToolCall; result: string }[] = [];
  for (const m of messages) {
    if ("toolCalls" in m) for (const c of m.toolCalls) calls.set(c.id, c);
    else if (m.role === "tool") {
      const call = calls.get(m.toolCallId);
      if (call) out.push({ call, result: m.content });
    }
  }
  return out;
}

/** How to ask for each tool, e.g. `lookup planet=…`: the offline model's advice when it called none. */
export function howToCall(tools: readonly ToolDefinition[]): string {
  return tools
    .map((t) => {
      const required = (t.parameters as Schema | undefined)?.required;
      return [t.name, ...(Array.isArray(required) ? required.map((k) => `${String(k)}=…`) : [])].join(" ");
    })
    .join(", ");
}
