/**
 * Scores a turn's expectations (all but the judge and scorers, which wait) on what the turn did,
 * and a simulated conversation's on what it reached. Each expectation gives one outcome, with a
 * reason whether it passed or not.
 */
import { isDeepStrictEqual } from "node:util";
import { schemaErrors, validatorOf } from "@autograms/graph";
import type { JsonValue } from "@autograms/graph";
import type { AgentNames } from "./agent-names.js";
import type { ConversationExpectations, TurnCase } from "./cases.js";
import { EVAL_REASONS as R } from "./messages.js";
import type { TurnRecord } from "./turn-record.js";

export interface Outcome {
  /** The turn it scored (1 the opening); null for the whole conversation. */
  turn: number | null;
  expectation: string;
  pass: boolean;
  reason: string;
  /** Its line in the cases file. */
  line: number;
}

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function scoreTurn(turn: TurnCase, record: TurnRecord, names: AgentNames): Outcome[] {
  const { expect } = turn;
  const out: Outcome[] = [];
  const add = (key: keyof TurnCase["expect"], expectation: string, pass: boolean, reason: string) =>
    out.push({ turn: record.turn, expectation, pass, reason, line: turn.lines[key] ?? turn.line });
  const nodes = (ref: string) => {
    const found = names.node(ref);
    return found.ok ? found.nodes : new Set<string>();
  };

  if (expect.node !== undefined) {
    const pass = record.replyNode !== null && nodes(expect.node).has(record.replyNode);
    add("node", `node ${expect.node}`, pass, record.replyNode === null ? R.no_reply() : R.replied_at(record.replyNode));
  }
  if (expect.path !== undefined) {
    let at = 0;
    let missing: string | undefined;
    for (const ref of expect.path) {
      const want = nodes(ref);
      while (at < record.path.length && !want.has(record.path[at]!)) at++;
      if (at === record.path.length) {
        missing = ref;
        break;
      }
      at++;
    }
    add(
      "path",
      `path ${expect.path.join(" > ")}`,
      missing === undefined,
      missing === undefined ? R.path_found(record.path) : R.path_missing(missing, record.path),
    );
  }
  if (expect.reply !== undefined) {
    const reply = record.reply ?? "";
    const { contains, regex, equals, not } = expect.reply;
    for (const text of list(contains))
      add(
        "reply",
        `reply contains ${JSON.stringify(text)}`,
        reply.includes(text),
        reply.includes(text) ? R.reply_has(text) : R.reply_lacks(text),
      );
    if (regex !== undefined) {
      const pass = new RegExp(regex).test(reply);
      add("reply", `reply matches /${regex}/`, pass, pass ? R.reply_ok() : R.reply_no_match(regex));
    }
    if (equals !== undefined)
      add(
        "reply",
        `reply equals ${JSON.stringify(equals)}`,
        reply === equals,
        reply === equals ? R.reply_ok() : R.reply_differs(reply),
      );
    for (const text of list(not))
      add(
        "reply",
        `reply lacks ${JSON.stringify(text)}`,
        !reply.includes(text),
        reply.includes(text) ? R.reply_has(text) : R.reply_lacks(text),
      );
  }
  for (const [name, expected] of Object.entries(expect.vars ?? {})) {
    const value = record.vars[name];
    const pass = isDeepStrictEqual(value, expected);
    add("vars", `vars.${name}`, pass, pass ? R.vars_ok() : R.var_differs(name, value, expected));
  }
  for (const [name, schema] of Object.entries(expect.varsSchema ?? {})) {
    const validate = validatorOf(schema as JsonValue);
    if (typeof validate === "string") throw new Error(validate); // checkCases refused it before
    const value = record.vars[name];
    const pass = value !== undefined && validate(value);
    const why = value === undefined ? "is not set" : schemaErrors(validate.errors);
    add("varsSchema", `varsSchema.${name}`, pass, pass ? R.vars_ok() : R.var_schema(name, why));
  }
  if (expect.tool !== undefined) {
    const { name, args } = expect.tool;
    const calls = record.tools.filter((t) => t.name === name);
    const match = calls.find((c) => args === undefined || containsArgs(c.args, args));
    const shown = JSON.stringify(args ?? {});
    add(
      "tool",
      `tool ${name}`,
      match !== undefined,
      match
        ? R.tool_ok(name, JSON.stringify(match.args))
        : calls.length
          ? R.tool_args(name, shown)
          : R.no_tool_call(
              name,
              record.tools.map((t) => t.name),
            ),
    );
  }
  if (expect.maxTokens !== undefined) {
    const { total, estimated } = record.tokens;
    const pass = total <= expect.maxTokens;
    add(
      "maxTokens",
      `maxTokens ${expect.maxTokens}`,
      pass,
      pass ? R.tokens(total, estimated) : R.over_tokens(total, expect.maxTokens, estimated),
    );
  }
  if (expect.maxMs !== undefined) {
    const pass = record.ms <= expect.maxMs;
    add("maxMs", `maxMs ${expect.maxMs}`, pass, pass ? R.ms(record.ms) : R.over_ms(record.ms, expect.maxMs));
  }
  return out;
}

/** A call's arguments hold the expected ones: each key deep-equal (a code call's one-object argument list counts as the object). */
function containsArgs(actual: JsonValue, expected: Record<string, JsonValue>): boolean {
  const object = Array.isArray(actual) && actual.length === 1 ? actual[0] : actual;
  if (object === null || typeof object !== "object" || Array.isArray(object)) return false;
  return Object.entries(expected).every(([k, v]) => k in object && isDeepStrictEqual(object[k], v));
}

export function scoreConversation(
  expect: ConversationExpectations,
  visited: ReadonlySet<string>,
  ended: string | null,
  names: AgentNames,
  line: number,
): Outcome[] {
  const out: Outcome[] = [];
  const reachedAny = (ref: string) => {
    const found = names.node(ref);
    return found.ok && [...found.nodes].some((n) => visited.has(n));
  };
  for (const ref of expect.reached ?? []) {
    const pass = reachedAny(ref);
    out.push({
      turn: null,
      expectation: `reached ${ref}`,
      pass,
      reason: pass ? R.reached(ref) : R.never_reached(ref),
      line,
    });
  }
  for (const ref of expect.notReached ?? []) {
    const pass = !reachedAny(ref);
    out.push({
      turn: null,
      expectation: `never reached ${ref}`,
      pass,
      reason: pass ? R.never_reached(ref) : R.reached(ref),
      line,
    });
  }
  if (expect.ended !== undefined) {
    const how = ended ?? "its turns ran out";
    const didEnd = ended === "quit" || ended === "end_signal";
    const pass = didEnd === expect.ended;
    out.push({
      turn: null,
      expectation: expect.ended ? "ended" : "not ended",
      pass,
      reason: didEnd ? R.ended(how) : R.not_ended(how),
      line,
    });
  }
  return out;
}
