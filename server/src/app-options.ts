/**
 * `createApp`'s and `listen`'s options checked by kind before anything starts: a program in
 * JavaScript (no compiler to stop it) that passes the wrong kind of value gets a TypeError naming
 * the option, not a failure deep inside a request, nor a value silently taken another way (a
 * port given as text was listened on as a Unix socket of that name, a busy policy the store does
 * not know served as `reject`). The token, the origins and the budgets keep their own checks.
 */
import { BUSY_POLICIES, STALE_POLICIES } from "@autograms/store";
import { checkPrices } from "./usage/prices.js";

/** The options as checked here: any value, each field read as unknown (not imported from app.ts, which imports this). */
type Given = Readonly<Record<string, unknown>>;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `'${value.length > 40 ? `${value.slice(0, 39)}\u2026` : value}'`;
  if (typeof value === "number") return String(value);
  return typeof value;
}

const refuse = (fn: string, what: string, value: unknown) => new TypeError(`${fn}: ${what}, not ${kindOf(value)}`);

function oneOf(fn: string, name: string, value: unknown, choices: readonly string[]): void {
  if (value !== undefined && !choices.includes(value as string))
    throw refuse(fn, `${name} must be one of ${choices.join(", ")}`, value);
}

function wholeNumbers(fn: string, name: string, given: unknown, min: number): void {
  if (given === undefined) return;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw refuse(fn, `${name} must be an object of whole numbers`, given);
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined && !(typeof value === "number" && Number.isSafeInteger(value) && value >= min))
      throw refuse(fn, `${name}.${key} must be a whole number, at least ${min}`, value);
  }
}

function texts(fn: string, name: string, value: unknown): void {
  if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === "string")))
    throw refuse(fn, `${name} must be an array of strings`, value);
}

export function checkAppOptions(given: unknown, fn = "createApp"): void {
  if (typeof given !== "object" || given === null) throw refuse(fn, "its options must be an object", given);
  const options = given as Given;
  const { agent, store } = options;
  if (
    typeof (agent as { reply?: unknown } | null)?.reply !== "function" ||
    typeof (agent as { graph?: unknown }).graph !== "object"
  )
    throw refuse(fn, "agent must be an Agent (new Agent(graph, { model }))", agent);
  if (typeof (store as { takeThread?: unknown } | null)?.takeThread !== "function")
    throw refuse(fn, "store must be a Store (await openStore(url))", store);
  oneOf(fn, "policy", options.policy, BUSY_POLICIES);
  oneOf(fn, "onStale", options.onStale, STALE_POLICIES);
  texts(fn, "allowedHosts", options.allowedHosts);
  texts(fn, "cors", options.cors);
  wholeNumbers(fn, "limits", options.limits, 1);
  wholeNumbers(fn, "turnCalls", options.turnCalls, 0);
  for (const key of ["concurrent", "deadlineMs"]) {
    const value = (options.turnCalls as Given | undefined)?.[key];
    if (value === 0) throw refuse(fn, `turnCalls.${key} must be a whole number, at least 1`, value);
  }
  if (options.flushMs !== undefined && !(typeof options.flushMs === "number" && options.flushMs >= 0))
    throw refuse(fn, "flushMs must be a number of milliseconds, at least 0", options.flushMs);
  if (options.routes !== undefined && !Array.isArray(options.routes))
    throw refuse(fn, "routes must be an array", options.routes);
  if (
    options.playground !== undefined &&
    options.playground !== false &&
    (typeof options.playground !== "object" || options.playground === null)
  )
    throw refuse(fn, "playground must be false or an object", options.playground);
  if (options.readiness !== undefined && typeof options.readiness !== "function")
    throw refuse(fn, "readiness must be a function", options.readiness);
  if (options.watching !== undefined && typeof options.watching !== "boolean")
    throw refuse(fn, "watching must be a boolean", options.watching);
  if (options.prices !== undefined) checkPrices(options.prices, `${fn}: prices`);
}

export function checkListenOptions(given: unknown): void {
  checkAppOptions(given, "listen");
  const options = given as Given;
  if (options.host !== undefined && (typeof options.host !== "string" || options.host === ""))
    throw refuse("listen", "host must be a host name or address", options.host);
  const { port } = options;
  if (port !== undefined && !(typeof port === "number" && Number.isInteger(port) && port >= 0 && port <= 65535))
    throw refuse("listen", "port must be a whole number from 0 (any free port) to 65535", port);
  wholeNumbers("listen", "connections", options.connections, 1);
}
