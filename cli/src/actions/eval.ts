import { evaluateFile, toJunit } from "@autograms/runtime/eval";
import type { ChatModel } from "@autograms/runtime";
import { writeText } from "../agent-loading/files.js";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import { chooseModel } from "../agent-loading/model.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { resultsTable } from "../evaluation/results-table.js";
import { importScorerModule } from "../evaluation/scorer-modules.js";

export interface EvalFlags extends ModelFlags {
  concurrency: number;
  repeat: number;
  junit?: string;
  json?: string;
  judgeModel?: string;
}

export function evalCommand(agentFile: string, casesFile: string, flags: EvalFlags): Promise<void> {
  return reporting("eval", (onLoaded) => evaluate(agentFile, casesFile, flags, onLoaded));
}

async function evaluate(
  agentFile: string,
  casesFile: string,
  flags: EvalFlags,
  onLoaded: (loaded: LoadedAgent) => void,
): Promise<number> {
  const { agent } = await openAgent(agentFile, flags, { modelRequired: true, onLoaded });
  const judge = flags.judgeModel === undefined ? undefined : await judgeModel(flags, flags.judgeModel);
  const report = await evaluateFile(agent, casesFile, {
    concurrency: flags.concurrency,
    repeat: flags.repeat,
    importModule: importScorerModule,
    ...(judge && { judge }),
  });
  process.stdout.write(resultsTable(report));
  if (flags.json !== undefined) writeText(flags.json, `${JSON.stringify(report, null, 2)}\n`, "the results ");
  if (flags.junit !== undefined) writeText(flags.junit, toJunit(report), "the JUnit report ");
  return report.pass ? 0 : 1;
}

/** The judge's model, named as --model names the agent's (with the same server and key flags). */
async function judgeModel(flags: EvalFlags, name: string): Promise<ChatModel> {
  const chosen =
    name === "offline"
      ? await chooseModel({ offline: true }, true)
      : await chooseModel({ model: name, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv }, true);
  return chosen.model;
}
