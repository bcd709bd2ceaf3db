import { readFileSync } from "node:fs";

/** The process ids the test shop server wrote to its SHOP_PID_FILE, one per start. */
export function starts(file: string): number[] {
  try {
    return readFileSync(file, "utf8").trim().split("\n").map(Number);
  } catch {
    return [];
  }
}
