// Public API of @autograms/server: HTTP endpoints for AutoGRAMS agents on a store of threads.
export { createApp, BUILT_IN_ROUTES } from "./app.js";
export type { AppOptions, AutogramsApp, RouteModule } from "./app.js";
export { listen } from "./serve.js";
export type { ListenOptions, RunningServer } from "./serve.js";
export type { ServerContext, ServerLimits } from "./context.js";
export { RunManager } from "./runs/run-manager.js";
export { followRun } from "./runs/follow-run.js";
export { eventsOf, latestRun } from "./runs/run-source.js";
export type { RunSource, LatestRun } from "./runs/run-source.js";
export { UiMessageTranslator, UI_MESSAGE_STREAM_HEADERS } from "./protocols/ui-message-stream.js";
export type { UiChunk, UiFrame } from "./protocols/ui-message-stream.js";
export { agUiRoutes, AgUiTranslator, agentVariables, variablesPatch } from "./protocols/ag-ui.js";
export type { AgUiEvent, Variables } from "./protocols/ag-ui.js";
export { playgroundFiles, playgroundGraph } from "./playground/routes.js";
export type { PlaygroundOptions } from "./playground/routes.js";
export { HttpError, errorResponse } from "./http/errors.js";
export { isRunEnd } from "./run-events.js";
export type { RunEvent, NumberedRunEvent } from "./run-events.js";
