/** A failure a command reports in one line on stderr, with its exit code: 1 a failed run, 2 usage. */
export class CliError extends Error {
  override name = "CliError";

  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}
