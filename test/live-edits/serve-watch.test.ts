// The real `autograms serve --watch` process, its turns played in the server's own thread
// (--workers 0); in worker threads, see serve-watch-workers.slow.ts.
import { describe, it } from "vitest";
import { cliTestFolder } from "../cli/support/run-cli.js";
import { editWhileServing } from "./support/watch-scenario.js";

const folder = cliTestFolder("autograms-serve-watch-");

describe("autograms serve --watch --workers 0", () => {
  it("runs a thread's next turn on the edited agent, reloads its tool module, and keeps the last good build when an edit breaks it", () =>
    editWhileServing(folder(), { workers: "0", afterAgentEdit: 1, afterToolEdit: 2 }));
});
