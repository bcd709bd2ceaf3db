import { askExtras, createStarter, nextSteps, StarterError } from "create-autograms";

export interface InitFlags {
  name?: string;
  /** Undefined when neither --store nor --no-store was given: asked on a terminal. */
  store?: boolean;
  mcp?: boolean;
  tarballs?: string;
}

export async function initCommand(dir: string, flags: InitFlags): Promise<void> {
  try {
    const extras = await askExtras(
      {
        ...(flags.store === undefined ? {} : { store: flags.store }),
        ...(flags.mcp === undefined ? {} : { mcp: flags.mcp }),
      },
      { input: process.stdin, output: process.stdout },
    );
    const starter = createStarter(dir, {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      extras,
      ...(flags.tarballs === undefined ? {} : { tarballs: flags.tarballs }),
    });
    process.stdout.write(nextSteps(starter));
  } catch (err) {
    if (!(err instanceof StarterError)) throw err;
    process.stderr.write(`autograms init: ${err.message}\n`);
    process.exitCode = 1;
  }
}
