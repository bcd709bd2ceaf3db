// Full size (npm run test:scale): the load of load.scale.ts while a process chosen at random is
// killed with SIGKILL every few seconds and started again; clients send a message that was not
// answered again, with the same id. 0 lost, 0 duplicated, 0 out of order.
import { describe, it } from "vitest";
import { clusterScenario } from "./support/scenario.js";

describe("chaos", () => {
  it("4 processes, 1,000 threads x 10 turns, a SIGKILL every 4 s: 0 lost, 0 duplicated, 0 out of order", async () => {
    await clusterScenario({ label: "chaos", processes: 4, threads: 1000, turns: 10, killEveryMs: 4000 });
    // About 2 minutes on a 2-core machine: the timeout leaves room for a busy one.
  }, 900_000);
});
