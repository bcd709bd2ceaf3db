// `npm run test:slow`: the tests that start real processes, restart them or wait on purpose
// (test/**/*.slow.ts): `autograms serve`, `chat` and the terminal debugger killed and signalled
// mid-turn, servers on one Postgres, the sandbox's child processes, worker threads stopping endless
// loops, tsc over the samples; the command as a process where that is the subject (cold start,
// compile's code cache read by a second start and its --watch, signals, OTLP export at exit, dap
// and mcp over stdio and TCP, a memory file resumed by a second process); the sandbox's limits in a
// process with a capped heap; timings on the clock (recursion's cost per call at two depths); and
// the pages (the playground, the HTML graph, the web sample, browsers on other origins) in headless
// Chromium, which with the servers behind them cost more CPU than any other group. Each is seconds
// of mostly waiting, so they run apart from `npm test` (which stays quick enough to run at every
// change) and beside each other as `npm test`'s files do. `.ci/run` runs them after the suite under
// every Node line.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export default defineConfig({
  resolve: base.resolve,
  test: { ...base.test, include: ["test/**/*.slow.ts"] },
});
