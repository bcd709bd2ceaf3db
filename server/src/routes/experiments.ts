/**
 * The served agent's stored experiments (the results of `autograms eval` runs), for the studio:
 * `GET /api/experiments` lists them, the most recent first; `GET /api/experiments/:id` gives one
 * with its cases (each case's first run: its outcomes, and its turns with every node of each path
 * at its line in the build that ran it) and, for an experiment run beside another (`--compare`),
 * that one's cases too and what changed between them.
 */
import { Hono } from "hono";
import { z } from "zod";
import { AgentNames, compareReports, type EvalReport } from "@autograms/runtime/eval";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import { integerParam } from "../http/request.js";
import { answer, error, type ApiPaths } from "./openapi-schemas.js";

/** Each case of a report as the studio shows it: its first run, each node at its line. */
function casesOf(report: EvalReport, names: AgentNames) {
  return report.cases.map((c) => {
    const run = report.runs.find((r) => r.case === c.case && r.run === 1);
    return {
      case: c.case,
      line: c.line,
      runs: c.runs,
      passed: c.passed,
      outcomes: run?.outcomes ?? [],
      turns: (run?.turns ?? []).map((t) => ({
        turn: t.turn,
        user: t.user,
        reply: t.reply,
        replyNode: t.replyNode,
        replyAt: t.replyAt,
        path: t.path.map((node) => ({ node, at: names.where(node) })),
        ...(t.error !== undefined && { error: t.error }),
      })),
    };
  });
}

export function experimentsRoutes(ctx: ServerContext): Hono {
  const { store } = ctx;
  const app = new Hono();

  app.get("/api/experiments", async (c) => {
    const limit = integerParam(c.req.query("limit"), "limit", 100);
    return c.json({
      experiments: await store.listExperiments({ limit: Math.min(limit, 1000), agent: ctx.served().name }),
    });
  });

  app.get("/api/experiments/:id", async (c) => {
    const id = c.req.param("id");
    const agent = ctx.served().name;
    const e = await store.experiment(id);
    if (!e || e.agent !== agent) throw new HttpError(404, "unknown_experiment", `no experiment '${id}' of ${agent}`);
    const { report, graph, ...experiment } = e;
    const names = new AgentNames(graph);
    // Its lines are those of the source served: the studio may light them there.
    const sameSource = e.sourceHash !== null && e.sourceHash === (ctx.served().agent.graph.source?.sha256 ?? null);
    let comparison = null;
    if (e.comparedWith !== null) {
      const other = await store.experiment(e.comparedWith);
      if (other) {
        const otherNames = new AgentNames(other.graph);
        const { report: _, graph: __, ...info } = other;
        comparison = {
          with: info,
          changes: compareReports(other.report, report, { before: otherNames, after: names }),
          cases: casesOf(other.report, otherNames),
        };
      }
    }
    return c.json({ experiment, sameSource, pass: report.pass, cases: casesOf(report, names), comparison });
  });

  return app;
}

const ApiExperiment = z.object({
  id: z.string(),
  createdAt: z.int(),
  agent: z.string(),
  build: z.string(),
  sourceHash: z.string().nullable(),
  model: z.string(),
  casesFile: z.string(),
  cases: z.int(),
  runs: z.int().meta({ description: "cases x --repeat" }),
  passed: z.int(),
  failed: z.int(),
  ms: z.number(),
  comparedWith: z.string().nullable(),
});

export const experimentsApi: ApiPaths = {
  "/api/experiments": {
    get: {
      summary: "The served agent's stored experiments (autograms eval runs), the most recent first",
      parameters: [{ name: "limit", in: "query", required: false, schema: z.string().regex(/^\d+$/) }],
      responses: {
        200: answer("at most `limit` (100; 1,000 at most)", z.object({ experiments: z.array(ApiExperiment) })),
        400: error("a bad limit"),
      },
    },
  },
  "/api/experiments/{id}": {
    get: {
      summary:
        "An experiment with its cases, each turn's path at its lines, and what changed beside the one it was compared with",
      parameters: [{ name: "id", in: "path", required: true, schema: z.string() }],
      responses: {
        200: answer(
          "`sameSource`: it ran on the source served; `comparison`: null unless run with --compare",
          z.object({
            experiment: ApiExperiment,
            sameSource: z.boolean(),
            pass: z.boolean(),
            cases: z.array(z.looseObject({ case: z.string() })),
            comparison: z.looseObject({ with: ApiExperiment }).nullable(),
          }),
        ),
        404: error("`unknown_experiment`"),
      },
    },
  },
};
