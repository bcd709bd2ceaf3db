import type { Loc } from "@autograms/graph";
import {
  DIAGNOSTICS,
  diagnosticMessage,
  type DiagnosticCode,
  type MessageArgs,
  type MessageName,
  type Severity,
} from "./catalogue.js";

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

  /** Message `name` of diagnostic `code` (see the catalogue), at `loc`. */
  report<C extends DiagnosticCode, M extends MessageName<C>>(
    code: C,
    name: M,
    loc: Loc,
    ...args: MessageArgs<C, M>
  ): void {
    this.list.push({
      code,
      severity: DIAGNOSTICS[code].severity,
      message: diagnosticMessage(code, name, ...args),
      file: this.file,
      ...loc,
    });
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
