/**
 * Errors of the store that no retry mends: a SQLite file whose pages are damaged answers its probe
 * (a write to one small table, the schema read afresh) while the requests that read other pages
 * fail. Once a request has met such an error, `/readyz` says so until the process restarts: the
 * file must be repaired or restored first.
 */
const DAMAGED: Record<string, string> = {
  SQLITE_CORRUPT: "the database file is damaged",
  SQLITE_NOTADB: "the database file is damaged (it is not a SQLite database)",
};

export class StoreFaults {
  /** Why the store cannot be trusted, once a request met damage. */
  why: string | undefined;

  /** An error a request or a run met: kept if it says the store is damaged. */
  saw(err: unknown): void {
    if (this.why !== undefined) return;
    const code = String((err as { code?: unknown } | null)?.code ?? "");
    const why = DAMAGED[code] ?? DAMAGED[code.split("_").slice(0, 2).join("_")];
    if (why !== undefined)
      this.why = `${why}: a request met ${code} at ${new Date().toISOString()}; repair or restore it, then restart the server`;
  }
}
