/**
 * `createApp`'s and `listen`'s options checked by kind before anything starts: a program in
 * JavaScript (no compiler to stop it) that passes the wrong kind of value gets a TypeError naming
 * the option, not a failure deep inside a request, nor a value silently taken another way (a
 * port given as text was listened on as a Unix socket of that name, a busy policy the store does
 * not know served as `reject`). The token, the origins and the budgets keep their own checks.
 *
 * Each option's check is a zod schema whose message says what it must be; the refusal names the
 * option by its path and prints the value given as every package does (the runtime's `shownValue`).
 */
import { shownValue } from "@autograms/runtime";
import { BUSY_POLICIES, STALE_POLICIES } from "@autograms/store";
import { z } from "zod";
import { checkPrices } from "./usage/prices.js";

/** The busy policies (`policy`) and the answers to stale memory (`onStale`): the store's, as it takes them. */
export type BusyPolicy = (typeof BUSY_POLICIES)[number];
export type StalePolicy = (typeof STALE_POLICIES)[number];

const wholeNumber = (min: number) =>
  z.custom<number>((v) => typeof v === "number" && Number.isSafeInteger(v) && v >= min, {
    error: `must be a whole number, at least ${min}`,
  });

/** An object of whole numbers at least `min`, some of its fields (`stricter`) at least 1. */
const wholeNumbers = (min: number, stricter: readonly string[] = []) =>
  z
    .record(z.string(), wholeNumber(min).optional(), { error: "must be an object of whole numbers" })
    .superRefine((given, ctx) => {
      for (const key of stricter)
        if (given[key] === 0)
          ctx.addIssue({ code: "custom", path: [key], message: "must be a whole number, at least 1" });
    })
    .optional();

const oneOf = (choices: readonly string[]) =>
  z.enum(choices as [string, ...string[]], { error: `must be one of ${choices.join(", ")}` }).optional();

const texts = z.array(z.string(), { error: "must be an array of strings" }).optional();

const AGENT = z.custom(
  (v) =>
    typeof (v as { reply?: unknown } | null)?.reply === "function" &&
    typeof (v as { graph?: unknown }).graph === "object",
  { error: "must be an Agent (new Agent(graph, { model }))" },
);

const APP_OPTIONS = z.looseObject(
  {
    agent: AGENT,
    agents: z
      .array(z.looseObject({ agent: AGENT }, { error: "must be an object ({ agent, workers?, sources? })" }), {
        error: "must be an array of { agent, workers?, sources? }",
      })
      .optional(),
    store: z.custom((v) => typeof (v as { takeThread?: unknown } | null)?.takeThread === "function", {
      error: "must be a Store (await openStore(url))",
    }),
    policy: oneOf(BUSY_POLICIES),
    onStale: oneOf(STALE_POLICIES),
    allowedHosts: texts,
    cors: texts,
    limits: wholeNumbers(1),
    turnCalls: wholeNumbers(0, ["concurrent", "deadlineMs"]),
    flushMs: z
      .custom<number>((v) => typeof v === "number" && v >= 0, {
        error: "must be a number of milliseconds, at least 0",
      })
      .optional(),
    resumeWindowMs: wholeNumber(0).optional(),
    routes: z.array(z.unknown(), { error: "must be an array" }).optional(),
    playground: z
      .custom((v) => v === false || (typeof v === "object" && v !== null), { error: "must be false or an object" })
      .optional(),
    readiness: z.custom((v) => typeof v === "function", { error: "must be a function" }).optional(),
    watching: z.boolean({ error: "must be a boolean" }).optional(),
    titles: z.boolean({ error: "must be a boolean" }).optional(),
    model: z
      .custom((v) => typeof (v as { complete?: unknown } | null)?.complete === "function", {
        error: "must be a ChatModel (with complete() and choose())",
      })
      .optional(),
  },
  { error: "its options must be an object" },
);

const LISTEN_OPTIONS = APP_OPTIONS.extend({
  host: z
    .string({ error: "must be a host name or address" })
    .min(1, { error: "must be a host name or address" })
    .optional(),
  port: z
    .custom<number>((v) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65535, {
      error: "must be a whole number from 0 (any free port) to 65535",
    })
    .optional(),
  connections: wholeNumbers(1),
});

/** The first of the schema's refusals of `given`, as a TypeError naming the option. */
function check(schema: z.ZodType, given: unknown, fn: string): void {
  const result = schema.safeParse(given);
  if (!result.success) {
    const { path, message } = result.error.issues[0]!;
    const value = path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)?.[key], given);
    const name = path.length === 0 ? "" : `${path.join(".")} `;
    throw new TypeError(`${fn}: ${name}${message}, not ${shownValue(value)}`);
  }
  // The price table has its own check: its refusals name the model whose entry is wrong.
  const { prices } = given as { prices?: unknown };
  if (prices !== undefined) checkPrices(prices, `${fn}: prices`);
}

export const checkAppOptions = (given: unknown) => check(APP_OPTIONS, given, "createApp");
export const checkListenOptions = (given: unknown) => check(LISTEN_OPTIONS, given, "listen");
