// The planet guide's tools: a calculator on the runtime's sandbox, a lookup over planets.json and
// a unit converter. Each is made with defineTool, so one definition serves code nodes (call it as
// a function), ReAct prompts (reactPlugin describes it) and native tool calls (its JSON Schema
// goes to the model). Arguments come from a model, so every tool checks them and says what is wrong.
import { defineTool, evaluate, reactPlugin, type PluginInfo } from "@autograms/runtime";

/** A tool's arguments object, as a model sends it. */
export type Args = Record<string, unknown>;

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`'${name}' must be a non-empty string`);
  return value;
}

function number(args: Args, name: string): number {
  const value = args[name];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`'${name}' must be a number`);
  return value;
}

export const calculator = defineTool({
  name: "calculator",
  title: "Calculator",
  description: "Evaluates an arithmetic expression: numbers, + - * / % **, parentheses and Math functions such as Math.sqrt.",
  parameters: {
    type: "object",
    properties: { expression: { type: "string", description: "The expression, e.g. (95 + 146) / 2" } },
    required: ["expression"],
  },
  run(args: Args): number {
    const expression = text(args, "expression");
    // The sandbox runs the expression with no variables and no tools, within its step and time limits.
    const { value } = evaluate(expression, {});
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`'${expression}' is not a finite number`);
    return value;
  },
});

export interface Planet {
  name: string;
  diameter_km: number;
  mass_earths: number;
  moons: number;
  day_hours: number;
  distance_from_sun_million_km: number;
}

const FACTS = ["diameter_km", "mass_earths", "moons", "day_hours", "distance_from_sun_million_km"] as const;
type Fact = (typeof FACTS)[number];

let planets: Promise<Planet[]> | undefined;

/** The data file is read on first use, so the lookup is asynchronous: the runtime awaits it. */
function loadPlanets(): Promise<Planet[]> {
  planets ??= import("./planets.json", { with: { type: "json" } }).then((m) => m.default as Planet[]);
  return planets;
}

export const lookup = defineTool({
  name: "lookup",
  title: "Planet facts",
  description: `Looks up facts about a planet of the solar system: ${FACTS.join(", ")}. Without a fact, returns them all.`,
  parameters: {
    type: "object",
    properties: {
      planet: { type: "string", description: "The planet's name, e.g. Mars" },
      fact: { type: "string", enum: [...FACTS], description: "The fact wanted" },
    },
    required: ["planet"],
  },
  async run(args: Args): Promise<Planet | number> {
    const name = text(args, "planet");
    const all = await loadPlanets();
    const planet = all.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
    if (!planet) throw new Error(`no planet named '${name}' (the planets are ${all.map((p) => p.name).join(", ")})`);
    if (args.fact === undefined) return planet;
    const fact = text(args, "fact");
    if (!(FACTS as readonly string[]).includes(fact)) throw new Error(`no fact '${fact}' (the facts are ${FACTS.join(", ")})`);
    return planet[fact as Fact];
  },
});

/** Each unit's size in the base unit of its dimension. */
const UNITS: Record<string, { dimension: string; size: number }> = {
  m: { dimension: "length", size: 1 },
  km: { dimension: "length", size: 1000 },
  mi: { dimension: "length", size: 1609.344 },
  au: { dimension: "length", size: 149_597_870_700 },
  kg: { dimension: "mass", size: 1 },
  lb: { dimension: "mass", size: 0.453_592_37 },
  earth_mass: { dimension: "mass", size: 5.9722e24 },
  s: { dimension: "time", size: 1 },
  h: { dimension: "time", size: 3600 },
  d: { dimension: "time", size: 86_400 },
};

export const convert = defineTool({
  name: "convert",
  title: "Unit converter",
  description: `Converts a value between units of length, mass or time: ${Object.keys(UNITS).join(", ")}.`,
  parameters: {
    type: "object",
    properties: {
      value: { type: "number", description: "The value to convert" },
      from: { type: "string", enum: Object.keys(UNITS), description: "Its unit" },
      to: { type: "string", enum: Object.keys(UNITS), description: "The unit wanted" },
    },
    required: ["value", "from", "to"],
  },
  run(args: Args): number {
    const value = number(args, "value");
    const from = text(args, "from");
    const to = text(args, "to");
    const [a, b] = [unit(from), unit(to)];
    if (a.dimension !== b.dimension) throw new Error(`cannot convert ${a.dimension} (${from}) to ${b.dimension} (${to})`);
    return (value * a.size) / b.size;
  },
});

function unit(name: string): { dimension: string; size: number } {
  if (!Object.hasOwn(UNITS, name)) throw new Error(`unknown unit '${name}' (the units are ${Object.keys(UNITS).join(", ")})`);
  return UNITS[name]!;
}

/** The tools as the ReAct prompt lists them. */
export function reactPlugins(): PluginInfo[] {
  return [calculator, lookup, convert].map((tool) => reactPlugin(tool));
}

/** A ReAct Action Input: it should be a JSON object of arguments, and a model may write anything. */
export function parseActionInput(input: string): Args {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (e) {
    throw new Error(`the Action Input is not valid JSON (${(e as Error).message}); write one JSON object, e.g. {"planet": "Mars"}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`the Action Input must be a JSON object of arguments, not ${input.trim()}`);
  }
  return value as Args;
}
