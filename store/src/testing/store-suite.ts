/**
 * The one test suite every store implementation passes (SQLite and Postgres run it alike, as
 * LangGraph's checkpointers share their validation suite); a third backend proves itself with
 * it. Each test gets a new, empty database. The test runner's functions are passed in, so the
 * store does not depend on one. One spec file per concern of the Store interface, each runnable
 * alone: threadsSpec, leasesSpec, runLogSpec.
 */
import { leasesSpec } from "./leases-spec.js";
import { runLogSpec } from "./run-log-spec.js";
import type { Backend } from "./suite-support.js";
import type { TestApi } from "./test-api.js";
import { threadsSpec } from "./threads-spec.js";

/**
 * Registers the suite for the store `backend` opens, with the runner's `describe`, `it` and
 * `expect` (vitest's or Jest's): `storeSuite("MyStore", backend, { describe, it, expect })`.
 */
export function storeSuite(name: string, backend: Backend, api: TestApi): void {
  threadsSpec(name, backend, api);
  leasesSpec(name, backend, api);
  runLogSpec(name, backend, api);
}
