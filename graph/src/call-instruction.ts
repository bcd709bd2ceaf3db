/**
 * A call node's instruction, `name(arg, …)`: the function it calls and its arguments as the array
 * literal the evaluator computes. Null when the instruction is not of that form.
 */
export function parseCallInstruction(instruction: string): { name: string; args: string } | null {
  const m = /^\s*([A-Za-z_$][\w$]*)\s*\(([\s\S]*)\)\s*;?\s*$/.exec(instruction);
  return m ? { name: m[1]!, args: `[${m[2]!.trim()}]` } : null;
}
