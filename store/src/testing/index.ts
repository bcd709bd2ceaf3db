/**
 * `@autograms/store/testing`: the suite every store implementation passes, for a new backend to
 * prove itself with (see docs/stores.md), and the small agent it drives.
 */
export { storeSuite, type Backend, type Database } from "./store-suite.js";
export type { Assertion, Expect, TestApi } from "./test-api.js";
export { EchoModel, echoAgent, echoGraph, gate } from "./echo-agent.js";
