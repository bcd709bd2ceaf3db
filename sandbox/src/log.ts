/** Which `console` function printed: `console.log` is "log", `console.warn` "warn", ... */
export type LogLevel = "log" | "info" | "debug" | "warn" | "error";

/** One line a `console` call printed, in the order printed. */
export interface SandboxLog {
  level: LogLevel;
  text: string;
}
