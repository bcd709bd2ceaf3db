// @autograms/server/worker: what a worker script of a turn pool imports (AppOptions.workers).
export { serveTurns } from "./workers/serve-turns.js";
export type { MadeAgent } from "./workers/serve-turns.js";
export type { TurnBudgets } from "./workers/turn-budget.js";
export type { WorkerHost } from "./workers/shared-tools.js";
