// The worker threads' script of bench/support/serve-offline.mjs: the graph it was given, with the
// offline model (no pause between words).
import { Agent, OfflineModel } from "@autograms/runtime";
import { serveTurns } from "@autograms/server/worker";

serveTurns(({ graph }) => new Agent(graph, { model: new OfflineModel() }));
