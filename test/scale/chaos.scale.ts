// Full size (npm run test:scale): the load of load.scale.ts while a process chosen at random is
// killed with SIGKILL every few seconds and started again; clients send a message that was not
// answered again, with the same id. 0 lost, 0 duplicated, 0 out of order.
import { describe, it } from "vitest";
import { clusterScenario } from "./support/scenario.js";

describe("chaos", () => {
  it("4 processes, 1,000 threads x 10 turns, a SIGKILL every 4 s: 0 lost, 0 duplicated, 0 out of order", async () => {
    await clusterScenario({ label: "chaos", processes: 4, threads: 1000, turns: 10, killEveryMs: 4000 });
    // Under 10 minutes on this 2-core machine until the last version; this one takes about 16 (its
    // first minutes, 1,000 new threads at once, run several times slower: not yet understood).
  }, 1_800_000);
});
