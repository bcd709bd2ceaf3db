/**
 * The store suite's experiments: evaluation runs kept with their report and graph, listed most
 * recent first, read back as they were saved, and bad input refused (ExperimentStore).
 */
import type { Graph } from "@autograms/runtime";
import type { EvalReport } from "@autograms/runtime/eval";
import { echoGraph } from "./echo-agent.js";
import { type Backend, withStore } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the experiments part of the store suite for the store `backend` opens; it runs alone as well. */
export function experimentsSpec(name: string, backend: Backend, api: TestApi): void {
  api.describe(`${name} store: experiments`, () => experimentsTests(backend, api));
}

/** A report of `passed` and `failed` runs of as many cases, each run one turn long. */
function report(passed: number, failed: number, agent = "Echo"): EvalReport {
  const runs = Array.from({ length: passed + failed }, (_, i) => ({
    case: `case ${i + 1}`,
    line: i + 1,
    run: 1,
    pass: i < passed,
    outcomes: [{ turn: 1, expectation: "node greet", pass: i < passed, reason: "replied at 'greet'", line: i + 1 }],
    turns: [],
  }));
  return {
    file: "cases.yaml",
    agent,
    runs: runs as unknown as EvalReport["runs"],
    cases: runs.map((r) => ({ case: r.case, line: r.line, runs: 1, passed: r.pass ? 1 : 0 })),
    pass: failed === 0,
    ms: 12.6,
  };
}

/** The experiments tests, registered in the describe block the caller is in (storeSuite puts the concerns in one). */
export function experimentsTests(backend: Backend, { it, expect }: TestApi): void {
  it("keeps an experiment's summary, report and graph, and lists the most recent first", () => {
    let clock = 1_000;
    return withStore(
      backend,
      async (store) => {
        const graph = echoGraph();
        expect(await store.listExperiments()).toEqual([]);
        const before = await store.saveExperiment({
          build: "before/agent.ts",
          model: "offline",
          report: report(2, 0),
          graph,
        });
        clock = 2_000;
        const after = await store.saveExperiment({
          id: "after-1",
          build: "agent.ts",
          model: "offline",
          comparedWith: before.id,
          report: report(1, 1),
          graph,
        });
        expect(before.id).toMatch(/^[0-9a-f]{8}$/);
        expect(after).toEqual({
          id: "after-1",
          createdAt: 2_000,
          agent: "Echo",
          build: "agent.ts",
          sourceHash: graph.source?.sha256 ?? null,
          model: "offline",
          casesFile: "cases.yaml",
          cases: 2,
          runs: 2,
          passed: 1,
          failed: 1,
          ms: 13,
          comparedWith: before.id,
        });
        expect((await store.listExperiments()).map((e) => e.id)).toEqual(["after-1", before.id]);
        expect((await store.listExperiments({ limit: 1 })).map((e) => e.id)).toEqual(["after-1"]);
        expect(await store.listExperiments({ agent: "Other" })).toEqual([]);
        const read = await store.experiment("after-1");
        expect(read).toEqual({ ...after, report: report(1, 1), graph });
        expect(await store.experiment("nope")).toBeNull();
      },
      { now: () => clock },
    );
  });

  it("refuses an experiment it could not show again, naming the argument", () =>
    withStore(backend, async (store) => {
      const graph = echoGraph();
      await expect(
        store.saveExperiment({ build: 3 as unknown as string, model: "offline", report: report(1, 0), graph }),
      ).rejects.toMatchObject({ code: "bad_request", message: "build: must be a string, not 3" });
      await expect(
        store.saveExperiment({ build: "a.ts", model: "offline", report: {} as EvalReport, graph }),
      ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("report: must be") });
      await expect(
        store.saveExperiment({
          build: "a.ts",
          model: "offline",
          report: report(1, 0),
          graph: null as unknown as Graph,
        }),
      ).rejects.toMatchObject({ code: "bad_request", message: "graph: must be an agent's graph, not null" });
      await store.saveExperiment({ id: "same", build: "a.ts", model: "offline", report: report(1, 0), graph });
      await expect(
        store.saveExperiment({ id: "same", build: "b.ts", model: "offline", report: report(1, 0), graph }),
      ).rejects.toMatchObject({ code: "bad_request", message: "there is an experiment 'same' already" });
      await expect(store.experiment("")).rejects.toMatchObject({ code: "bad_request" });
      expect(await store.listExperiments()).toHaveLength(1);
    }));
}
