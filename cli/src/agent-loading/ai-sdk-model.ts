// The model of `--model PROVIDER:MODEL`: the provider's package, loaded only now.
import type { ChatModel } from "@autograms/runtime";
import type { AiSdkModelOptions } from "@autograms/runtime/ai-sdk";
import { CliError } from "./cli-error.js";
import { PROVIDERS } from "./ai-sdk-providers.js";
import { loadOptional } from "./optional-package.js";

export interface ProviderChoice {
  provider: string;
  modelId: string;
  /** `--base-url`, passed to the provider as its baseURL. */
  baseURL?: string;
  /** From `--api-key-env`, passed as its apiKey; otherwise it reads its usual variable. */
  apiKey?: string;
  options: AiSdkModelOptions;
}

export async function providerModel(choice: ProviderChoice): Promise<ChatModel> {
  const known = PROVIDERS[choice.provider]!;
  const flag = `--model ${choice.provider}:${choice.modelId}`;
  if (choice.modelId === "")
    throw new CliError(`${flag}: name the model after the colon, e.g. --model ${choice.provider}:MODEL`, 2);
  if (known.needsBaseUrl && choice.baseURL === undefined)
    throw new CliError(`${flag}: give the server with --base-url URL`, 2);
  if (known.keyEnv && choice.apiKey === undefined && !process.env[known.keyEnv]) {
    throw new CliError(`${flag}: set ${known.keyEnv} (or name another variable with --api-key-env VAR)`, 2);
  }
  // The ai 7 line needs Node 22; on Node 20 the ai 6 line is the one that runs.
  const onNode20 = Number(process.versions.node.split(".")[0]) < 22;
  const install = `${known.package}@${onNode20 ? known.ai6Major : known.major}`;
  const pkg = await loadOptional(known.package, install, flag);
  const create = pkg[known.create];
  if (typeof create !== "function")
    throw new CliError(
      `${flag}: ${known.package} has no ${known.create}(): install a version made for ai 7 or ai 6: npm install ${install}`,
      2,
    );
  const settings = {
    ...(known.needsBaseUrl && { name: choice.provider }),
    ...(choice.baseURL !== undefined && { baseURL: choice.baseURL }),
    ...(choice.apiKey !== undefined && { apiKey: choice.apiKey }),
  };
  const languageModel = (create as (s: object) => (id: string) => unknown)(settings)(choice.modelId);
  const { AiSdkModel } = await import("@autograms/runtime/ai-sdk");
  try {
    return new AiSdkModel(languageModel as ConstructorParameters<typeof AiSdkModel>[0], choice.options);
  } catch (err) {
    // The runtime's advice names no package; this one knows which to install.
    const why = (err as Error).message.replace(/^AiSdkModel: /, "").replace(/: install a current provider.*$/, "");
    throw new CliError(`${flag}: ${why}: npm install ${install}`, 2);
  }
}
