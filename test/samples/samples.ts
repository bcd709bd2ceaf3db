// The sample agents: every folder of samples/ with an agent.ts.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const SAMPLES_DIR = join(import.meta.dirname, "..", "..", "samples");

export const SAMPLES: string[] = readdirSync(SAMPLES_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(SAMPLES_DIR, e.name, "agent.ts")))
  .map((e) => e.name)
  .sort();

export const agentPath = (name: string) => join(SAMPLES_DIR, name, "agent.ts");
