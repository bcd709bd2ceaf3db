// The experiments API: the served agent's stored `autograms eval` runs, listed, and one with its
// cases (each node of each path at its line) and what changed from the experiment it ran beside.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, OfflineModel } from "@autograms/runtime";
import { startTestServer, tempFolder, type TestServer } from "./support/harness.js";
import { tutor } from "./support/playground-page.js";
import { storeTutorExperiments } from "./support/tutor-experiments.mjs";

let folder: ReturnType<typeof tempFolder>;
let t: TestServer;
let ids: { there: string; here: string };
beforeAll(async () => {
  folder = tempFolder("autograms-server-experiments-");
  t = await startTestServer(folder.path, { agent: new Agent(tutor, { model: new OfflineModel() }) });
  const { there, here } = await storeTutorExperiments(t.store, tutor);
  ids = { there: there.id, here: here.id };
});
afterAll(async () => {
  await t?.close();
  folder?.remove();
});

const get = async (path: string) => {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, body: await res.json() };
};

describe("the experiments API", () => {
  it("lists the served agent's experiments, the most recent first", async () => {
    const { status, body } = await get("/api/experiments");
    expect(status).toBe(200);
    expect(body.experiments.map((e: { id: string }) => e.id)).toEqual([ids.here, ids.there]);
    expect(body.experiments[0]).toMatchObject({
      agent: "FractionTutor",
      cases: 2,
      passed: 1,
      failed: 1,
      comparedWith: ids.there,
    });
    expect((await get("/api/experiments?limit=1")).body.experiments).toHaveLength(1);
    expect((await get("/api/experiments?limit=x")).status).toBe(400);
  });

  it("gives an experiment's cases at their lines, and what changed from the one it ran beside", async () => {
    const { status, body } = await get(`/api/experiments/${ids.here}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ experiment: { id: ids.here }, sameSource: true, pass: false });
    const nervous = body.cases.find((c: { case: string }) => c.case === "a nervous student");
    expect(nervous).toMatchObject({ runs: 1, passed: 0 });
    expect(nervous.outcomes.filter((o: { pass: boolean }) => !o.pass)).toEqual([
      expect.objectContaining({ turn: 2, expectation: "node explain" }),
    ]);
    const turn = nervous.turns[1];
    expect(turn).toMatchObject({ turn: 2, user: "no, I am nervous", replyNode: "encourage", replyAt: "agent.ts:31" });
    expect(turn.path[0]).toEqual({ node: "ask_ready", at: "agent.ts:17" });
    expect(turn.path.at(-1)).toEqual({ node: "encourage", at: "agent.ts:31" });
    expect(body.comparison.with).toMatchObject({ id: ids.there, build: "before/agent.ts" });
    expect(body.comparison.changes).toEqual([
      expect.objectContaining({
        case: "a nervous student",
        before: { passed: 1, runs: 1 },
        after: { passed: 0, runs: 1 },
        turns: [
          expect.objectContaining({
            turn: 2,
            what: "path",
            lastShared: expect.objectContaining({ node: "ask_ready" }),
          }),
        ],
      }),
    ]);
    const there = body.comparison.cases.find((c: { case: string }) => c.case === "a nervous student");
    expect(there.turns[1]).toMatchObject({ user: "yes", replyNode: "explain" });
    // The one it ran beside has no comparison of its own.
    expect((await get(`/api/experiments/${ids.there}`)).body).toMatchObject({ pass: true, comparison: null });
  });

  it("an unknown experiment is 404 with its code", async () => {
    const { status, body } = await get("/api/experiments/0badc0de");
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      code: "unknown_experiment",
      message: "no experiment '0badc0de' of FractionTutor",
    });
  });
});
