/**
 * Why a store cannot take a write, in words fit for an unauthenticated readiness probe: what is
 * wrong, never where the store is (a path, a host, a password). Each driver knows its database's
 * error codes (SqlDriver.unwritable).
 */
import { StoreError } from "../errors.js";
import type { SqlDriver } from "./driver.js";

export function whyUnwritable(driver: SqlDriver, err: unknown): string {
  if (err instanceof StoreError && err.code === "unavailable") return "the database cannot be reached";
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  return driver.unwritable(code) ?? "the database failed to write";
}
