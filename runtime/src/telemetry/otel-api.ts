// @opentelemetry/api, an optional peer dependency: loaded the first time a run starts, and only
// if it is installed. Without it, or without an SDK registered through it, nothing is recorded.
// The API keeps what an SDK registers on the global object, so a copy of it loaded here sees the
// SDK that another copy (the application's, the command line's) registered.
import { createRequire } from "node:module";

export type OtelApi = typeof import("@opentelemetry/api");

let loaded: OtelApi | null | undefined;

export function otelApi(): OtelApi | null {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}
