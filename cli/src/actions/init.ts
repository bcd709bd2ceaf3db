import { createStarter, nextSteps, StarterError } from "create-autograms";

export function initCommand(dir: string, flags: { name?: string }): void {
  try {
    process.stdout.write(nextSteps(createStarter(dir, flags.name === undefined ? {} : { name: flags.name })));
  } catch (err) {
    if (!(err instanceof StarterError)) throw err;
    process.stderr.write(`autograms init: ${err.message}\n`);
    process.exitCode = 1;
  }
}
