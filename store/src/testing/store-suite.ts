/**
 * The one test suite every store implementation passes (SQLite and Postgres run it alike, as
 * LangGraph's checkpointers share their validation suite); a third backend proves itself with
 * it. Each test gets a new, empty database. The test runner's functions are passed in, so the
 * store does not depend on one. One spec file per concern of the Store interface, each runnable
 * alone: threadsSpec, threadSettingsSpec, leasesSpec, runLogSpec, experimentsSpec.
 */
import { experimentsTests } from "./experiments-spec.js";
import { leasesTests } from "./leases-spec.js";
import { runLogTests } from "./run-log-spec.js";
import { runListTests } from "./run-list-spec.js";
import type { Backend } from "./suite-support.js";
import type { TestApi } from "./test-api.js";
import { threadSettingsTests } from "./thread-settings-spec.js";
import { threadsTests } from "./threads-spec.js";

/**
 * Registers the suite for the store `backend` opens, with the runner's `describe`, `it` and
 * `expect` (vitest's or Jest's): `storeSuite("MyStore", backend, { describe, it, expect })`.
 */
export function storeSuite(name: string, backend: Backend, api: TestApi): void {
  // One describe block, as the suite has always been registered: a runner's filters and reports
  // that name it go on working.
  api.describe(`${name} store`, () => {
    threadsTests(backend, api);
    threadSettingsTests(backend, api);
    leasesTests(backend, api);
    runLogTests(backend, api);
    runListTests(backend, api);
    experimentsTests(backend, api);
  });
}
