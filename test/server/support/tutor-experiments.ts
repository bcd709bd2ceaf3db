// Two stored experiments of the tutor sample, for the experiments API and the studio's page: the
// same case names on two "builds" (cases told apart by what the user says), so that one case
// passes there and fails here and its second turn parts at `ask_ready`.
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { AgentNames, checkCases, readCases, runCases } from "@autograms/runtime/eval";
import type { ExperimentInfo, Store } from "@autograms/store";

const cases = (nervous: string) => `
- name: ready to start
  turns:
    - expect: { node: ask_ready }
    - user: yes
      expect: { node: explain }
- name: a nervous student
  turns:
    - expect: { node: ask_ready }
    - user: ${nervous}
      expect: { node: explain }
`;

async function report(graph: Graph, text: string) {
  const read = readCases("cases.yaml", text);
  checkCases(read, new AgentNames(graph));
  return runCases(new Agent(graph, { model: new OfflineModel() }), read);
}

/** Stores "there" (every case passes) and then "here" (the nervous student's case fails), run beside it. */
export async function storeTutorExperiments(
  store: Store,
  graph: Graph,
): Promise<{ there: ExperimentInfo; here: ExperimentInfo }> {
  const there = await store.saveExperiment({
    build: "before/agent.ts",
    model: "offline",
    report: await report(graph, cases("yes")),
    graph,
  });
  const here = await store.saveExperiment({
    build: "samples/tutor/agent.ts",
    model: "offline",
    comparedWith: there.id,
    report: await report(graph, cases("no, I am nervous")),
    graph,
  });
  return { there, here };
}
