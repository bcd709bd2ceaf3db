// Two stored experiments of the tutor sample, for the experiments API, the studio's page and its
// pictures (scripts/screenshots.mjs, in plain Node: so plain JavaScript): the same case names on
// two "builds" (cases told apart by what the user says), so that one case passes there and fails
// here and its second turn parts at `ask_ready`.
import { Agent, OfflineModel } from "@autograms/runtime";
import { AgentNames, checkCases, readCases, runCases } from "@autograms/runtime/eval";

/** @param {string} nervous what the nervous student answers */
const cases = (nervous) => `
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

/**
 * @param {import("@autograms/runtime").Graph} graph
 * @param {string} text
 */
async function report(graph, text) {
  const read = readCases("cases.yaml", text);
  checkCases(read, new AgentNames(graph));
  return runCases(new Agent(graph, { model: new OfflineModel() }), read);
}

/**
 * Stores "there" (every case passes) and then "here" (the nervous student's case fails), run beside it.
 * @param {import("@autograms/store").Store} store
 * @param {import("@autograms/runtime").Graph} graph
 * @returns {Promise<{ there: import("@autograms/store").ExperimentInfo; here: import("@autograms/store").ExperimentInfo }>}
 */
export async function storeTutorExperiments(store, graph) {
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
