// `npm run test:scale`: the scale tier (test/**/*.scale.ts): the full-size scale tests
// (test/scale/: 4 server processes on one Postgres, 1,000 threads x 10 turns, with and without
// SIGKILLs) and the packages installed from their tarballs into a new project (test/packages/),
// each minutes or a minute long, so not part of `npm test` (small versions of each: npm run
// test:slow's test/scale/cluster.slow.ts, npm test's test/packages/packed.test.ts). One file at a
// time: each takes the whole machine.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["test/**/*.scale.ts"],
    globalSetup: base.test?.globalSetup,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
