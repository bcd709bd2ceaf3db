// Public API of @autograms/server: HTTP endpoints for AutoGRAMS agents on a store of threads.
export type { RunEvent, NumberedRunEvent } from "./run-events.js";
