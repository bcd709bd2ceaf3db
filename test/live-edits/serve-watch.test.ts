// `autograms serve --watch` plays each build in worker threads of its own, which end with the
// build and take the modules they loaded with them: the server's own thread (--workers 0) cannot
// let go of a module, so the two are refused together. The real process: serve-watch-workers.slow.ts.
import { describe, expect, it } from "vitest";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";

const folder = cliTestFolder("autograms-serve-watch-");

describe("autograms serve --watch --workers 0", () => {
  it("is a usage error saying why, before the agent is loaded", async () => {
    const r = await autogramsInProcess(["serve", "missing.ts", "--watch", "--workers", "0", "--offline"], {
      cwd: folder(),
    });
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(
      "autograms serve: --watch plays each build in worker threads of its own, so that the modules of earlier builds can be let go (Node cannot unload a module from the server's thread): --workers 0 cannot go with it; give --workers 1 or more, or leave --workers out\n",
    );
  });
});
