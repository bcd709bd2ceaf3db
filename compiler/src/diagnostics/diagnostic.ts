import type { Loc } from "@autograms/runtime";
import { DIAGNOSTICS, type DiagnosticCode, type Severity } from "./catalogue.js";

/** A problem found in an agent file; lines and columns start at 1. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Collects diagnostics for one file; compile() reports them all, never only the first. */
export class Diagnostics {
  readonly list: Diagnostic[] = [];
  constructor(readonly file: string) {}

  report(code: DiagnosticCode, message: string, loc: Loc): void {
    this.list.push({ code, severity: DIAGNOSTICS[code].severity, message, file: this.file, ...loc });
  }

  get errorCount(): number {
    return this.list.filter((d) => d.severity === "error").length;
  }

  get hasErrors(): boolean {
    return this.errorCount > 0;
  }

  /** In source order, so the first message printed is the first problem in the file. */
  sorted(): Diagnostic[] {
    return [...this.list].sort((a, b) => a.line - b.line || a.column - b.column);
  }
}
