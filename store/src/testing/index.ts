/**
 * `@autograms/store/testing`: the suite every store implementation passes, for a new backend to
 * prove itself with (see docs/stores.md), whole or one concern at a time, and the small agent it drives.
 */
export { storeSuite } from "./store-suite.js";
export { threadsSpec } from "./threads-spec.js";
export { threadSettingsSpec } from "./thread-settings-spec.js";
export { leasesSpec } from "./leases-spec.js";
export { runLogSpec } from "./run-log-spec.js";
export { experimentsSpec } from "./experiments-spec.js";
export type { Backend, Database } from "./suite-support.js";
export type { Assertion, Expect, TestApi } from "./test-api.js";
export { EchoModel, echoAgent, echoGraph, gate } from "./echo-agent.js";
