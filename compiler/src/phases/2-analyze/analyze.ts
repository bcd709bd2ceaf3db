import type TS from "typescript";
import type { JsonValue, ToolInfo } from "@autograms/graph";
import { readFromDisk, type ReadFile } from "./action-module.js";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { analyzeAgentClass } from "./agent-class.js";
import { checkStatementsCode } from "./check-code.js";
import type { FunctionContext } from "./context.js";
import type { AgentIR, FunctionIR } from "./ir.js";
import { analyzeScope } from "./scope.js";
import { VISITORS } from "./visitors.js";

/** Phase 2: the agent class and every method body, checked and turned into the IR. */
export function analyze(
  file: TS.SourceFile,
  diagnostics: Diagnostics,
  readFile: ReadFile = readFromDisk,
): AgentIR | null {
  const agentClass = analyzeAgentClass(file, diagnostics, readFile);
  if (!agentClass) return null;
  const { context } = agentClass;
  const functions: FunctionIR[] = [];
  // main first: its nodes open the graph and its entry is the start.
  const methods = [...context.methods.values()].sort((a, b) => Number(b.kind === "main") - Number(a.kind === "main"));
  for (const method of methods) {
    const ctx: FunctionContext = { agent: context, visit: VISITORS, method, locals: new Set(), temps: new Map() };
    const errorsBefore = diagnostics.errorCount;
    analyzeScope(ctx);
    const body = ctx.visit.statements(method.decl.body?.statements ?? [], ctx);
    // Code from a function with errors may hold placeholders; its errors say enough.
    if (diagnostics.errorCount === errorsBefore) checkStatementsCode(body, diagnostics);
    const defaults: Record<string, JsonValue> = {};
    method.defaults.forEach((d, i) => {
      if (d !== undefined) defaults[method.params[i]!] = JSON.parse(d) as JsonValue;
    });
    functions.push({
      name: method.name,
      kind: method.kind,
      params: method.params,
      required: method.minArgs,
      defaults,
      body,
      loc: method.loc,
    });
  }
  const tools: Record<string, ToolInfo> = {};
  for (const [name, tool] of context.tools) if (context.usedTools.has(name)) tools[name] = tool;
  return {
    className: agentClass.className,
    globals: agentClass.globals,
    functions,
    tools,
    actions: Object.fromEntries(context.usedActions),
  };
}
