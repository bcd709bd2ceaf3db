import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Files that mostly wait (installing packages into a fresh project; model servers that stall for
 * seconds on purpose, 16 s on the clock for 2 s of CPU) start first, so their waiting overlaps the
 * rest of the run instead of ending it. Otherwise Vitest's own order: the longest file of the last
 * run first, or on a first run (a fresh clone, CI) the largest file first.
 */
const FIRST = [
  /\/test\/packages\//,
  /\/test\/models\/openai-stalls\.test\.ts$/,
  // Starts a PostgreSQL server and waits on it (and on the disk) for most of its 10 s: on a first
  // run, ordered by size, this small file started last and ended the run.
  /\/test\/store\/postgres\.test\.ts$/,
];

class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => FIRST.some((re) => re.test(f.moduleId.replace(/\\/g, "/")));
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

// Tests import the packages by name; point those names at the sources so a test run needs no build.
export default defineConfig({
  resolve: {
    alias: {
      // Longer names first: an alias also matches the names it begins.
      "@autograms/runtime/ai-sdk": src("./runtime/src/model/ai-sdk/index.ts"),
      "@autograms/runtime/mcp": src("./runtime/src/mcp/index.ts"),
      "@autograms/runtime/telemetry": src("./runtime/src/telemetry/index.ts"),
      "@autograms/runtime/eval/vitest": src("./runtime/src/eval/vitest.ts"),
      "@autograms/runtime/eval": src("./runtime/src/eval/index.ts"),
      "@autograms/runtime": src("./runtime/src/index.ts"),
      "@autograms/graph": src("./graph/src/index.ts"),
      "@autograms/sandbox": src("./sandbox/src/index.ts"),
      "@autograms/compiler": src("./compiler/src/index.ts"),
      // Before "@autograms/store", which would otherwise take "/testing" as a path below its file.
      "@autograms/store/testing": src("./store/src/testing/index.ts"),
      "@autograms/store": src("./store/src/index.ts"),
      "@autograms/server/worker": src("./server/src/worker.ts"),
      "@autograms/server": src("./server/src/index.ts"),
      "create-autograms": src("./create-autograms/src/index.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Builds the packages and bundles the CLI once, for the tests that run the real command.
    globalSetup: ["test/support/build-cli.ts"],
    // Tests also run that bundle in their own process (test/cli/support/run-cli.ts): Node loads it
    // as it is, as the command does, not Vite (which would transform a few megabytes of it again).
    server: { deps: { external: [/\/cli\/dist\//] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Where the time went (docs/install.md#the-test-suite): each test file importing the runtime,
    // the compiler and TypeScript afresh cost more CPU than the tests themselves, so a worker
    // keeps its modules from file to file (the tests keep no state in shared modules: a file
    // starts its own servers, folders and pools). And Vitest's default of one worker less than
    // the cores left one of two cores idle while the CLI tests wait for the commands they run, the
    // model servers that stall on purpose and the databases: two workers more than the cores keep
    // both busy (on two cores, whole runs of 93.7 and 87.6 s with three workers, 85.0 with four,
    // 83.9 with five).
    isolate: false,
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: WaitingFirst },
  },
});
