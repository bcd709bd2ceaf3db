import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import the packages by name; point those names at the sources so a test run needs no build.
export default defineConfig({
  resolve: {
    alias: {
      "@autograms/runtime": src("./runtime/src/index.ts"),
      "@autograms/compiler": src("./compiler/src/index.ts"),
      "@autograms/store": src("./store/src/index.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Builds the packages and bundles the CLI once, for the tests that run the real command.
    globalSetup: ["test/support/build-cli.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
