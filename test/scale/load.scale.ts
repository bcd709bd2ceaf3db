// Full size (npm run test:scale): 4 `autograms serve` processes on one Postgres, 1,000 threads x 10
// turns sent at once, each message to a process chosen at random, the offline model. Afterwards
// every thread holds exactly its opening and its 10 turns, in order. Prints throughput and p50/p99.
import { describe, it } from "vitest";
import { clusterScenario } from "./support/scenario.js";

describe("load", () => {
  it("4 processes, 1,000 threads x 10 turns: every turn exactly once, in order", async () => {
    await clusterScenario({ label: "load", processes: 4, threads: 1000, turns: 10 });
  }, 900_000);
});
