/**
 * The edit table of docs/semantics.md ("Editing an agent while conversations wait"): each row an
 * edit of the shop agent (shop/agent.ts), where the conversation waits when it is made, and what
 * the next turn does on the new build. Run as objects, through JSON and through both stores.
 */
import { readFileSync } from "node:fs";
import { compile } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";

export const SHOP = readFileSync(new URL("./shop/agent.ts", import.meta.url), "utf8");

/**
 * Where a conversation waits, and the user's messages that bring it there from the start (the
 * first message opens the conversation: the agent says "Welcome!").
 * - `checkout`: main, at the named node `checkout` ("Ready to check out?");
 * - `pay`: inside `pay` (called from main), at "Card or cash?" within an `if`.
 */
export const WAITS = {
  checkout: ["hi", "show me"],
  pay: ["hi", "show me", "yes", "ok"],
} as const;
export type Wait = keyof typeof WAITS;

/** The message sent after the edit (the model answers every choice with its first answer, "yes"). */
export const NEXT_MESSAGE = "yes";

export interface EditRow {
  edit: string;
  at: Wait;
  change: (source: string) => string;
  /** The next turn's reply on the new build, or the stale_memory message it is refused with. */
  outcome: { reply: string } | { stale: RegExp };
}

function replace(from: string, to: string): (source: string) => string {
  return (source) => {
    if (!source.includes(from)) throw new Error(`the edit's text is not in the agent: ${from}`);
    return source.replace(from, to);
  };
}

const CHECKOUT = `    exec_node({
      action: "chat_exact", name: "checkout", instruction: "Ready to check out?",
      transitions: ["next", "browse"], transition_question: "Is the user ready?", transition_choices: ["yes", "no"],
    });
`;
const PAY = `  pay(method: string) {
    if (method !== "") {
      chatExact("Card or cash?");
    }
    chatExact("Paid.");
  }
`;

export const EDITS: EditRow[] = [
  {
    edit: "edit the text of the node after X",
    at: "checkout",
    change: replace(`chatExact("Thanks!")`, `chatExact("Thank you!")`),
    outcome: { reply: "Thank you!" },
  },
  {
    edit: "insert a statement right after X",
    at: "checkout",
    change: replace(CHECKOUT, `${CHECKOUT}    chatExact("One moment.");\n`),
    outcome: { reply: "One moment." },
  },
  {
    edit: "delete the statement after X",
    at: "checkout",
    change: replace(`    chatExact("Thanks!");\n`, ""),
    outcome: { reply: "Card or cash?" },
  },
  {
    edit: "insert a statement before X",
    at: "checkout",
    change: replace(
      `    this.note = "looking";\n`,
      `    this.note = "looking";\n    chatExact("Here is the basket.");\n`,
    ),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "delete a statement before X",
    at: "checkout",
    change: replace(`    this.note = "looking";\n`, ""),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "edit the text of another node",
    at: "checkout",
    change: replace(`chatExact("Welcome!")`, `chatExact("Welcome back!")`),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "edit the content of a node X's explicit transition names",
    at: "checkout",
    change: replace(`"What else?"`, `"Anything else?"`),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "add a method",
    at: "checkout",
    change: replace(PAY, `${PAY}\n  extra() {\n    chatExact("Extra.");\n  }\n`),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "reorder methods",
    at: "checkout",
    change: (s) => replace(PAY, "")(s).replace("  main() {", `${PAY}\n  main() {`),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "rename a variable X does not read",
    at: "checkout",
    change: (s) => s.replaceAll("note", "remark"),
    outcome: { reply: "Thanks!" },
  },
  {
    edit: "edit the condition of the if around X",
    at: "pay",
    change: replace(`if (method !== "")`, `if (method.length > 0)`),
    outcome: { reply: "Paid." },
  },
  {
    edit: "edit the text after the call X's function was called from (call stack)",
    at: "pay",
    change: replace(`chatExact("Bye."`, `chatExact("Goodbye."`),
    outcome: { reply: "Paid." },
  },
  {
    edit: "insert a statement after the call (call stack)",
    at: "pay",
    change: replace(`    this.pay(this.note);\n`, `    this.pay(this.note);\n    chatExact("Receipt sent.");\n`),
    outcome: { reply: "Paid." },
  },
  {
    edit: "insert a copy of X's statement before X",
    at: "pay",
    change: replace(`    if (method !== "") {\n`, `    if (method !== "") {\n      chatExact("Card or cash?");\n`),
    outcome: { reply: "Card or cash?" },
  },
  {
    edit: "change X's own instruction",
    at: "checkout",
    change: replace(`"Ready to check out?"`, `"Ready to pay?"`),
    outcome: { stale: /node 'checkout', where the conversation stands, is not what it was/ },
  },
  {
    edit: "change X's transition question",
    at: "checkout",
    change: replace(`"Is the user ready?"`, `"Does the user want to pay?"`),
    outcome: { stale: /node 'checkout', where the conversation stands, is not what it was/ },
  },
  {
    edit: "change the target of X's explicit transition",
    at: "checkout",
    change: replace(`transitions: ["next", "browse"]`, `transitions: ["next", "quit"]`),
    outcome: { stale: /node 'checkout', where the conversation stands, is not what it was/ },
  },
  {
    edit: "remove X",
    at: "checkout",
    change: (s) => replace(CHECKOUT, "")(s).replace(`transitions: ["checkout"]`, `transitions: ["quit"]`),
    outcome: { stale: /stands on node 'checkout', which the graph no longer has/ },
  },
  {
    edit: "move X into another function",
    at: "checkout",
    change: (s) =>
      replace(CHECKOUT, "")(s).replace(`    chatExact("Paid.");\n`, `    chatExact("Paid.");\n${CHECKOUT}`),
    outcome: { stale: /node 'checkout', where the conversation stands, is no longer in main/ },
  },
  {
    edit: "change X's own instruction (call stack: X inside the called function)",
    at: "pay",
    change: replace(`chatExact("Card or cash?")`, `chatExact("Card, cash or voucher?")`),
    outcome: {
      stale: /the conversation stands on node 'pay\.[\w.]+' \(in function 'pay'\), which the graph no longer has/,
    },
  },
  {
    edit: "change the call a caller waits at (call stack)",
    at: "pay",
    change: replace(`this.pay(this.note)`, `this.pay("card")`),
    outcome: { stale: /the conversation stands on node 'main\.call_.*', which the graph no longer has/ },
  },
  {
    edit: "make X's function another kind (call stack)",
    at: "pay",
    change: (s) =>
      replace(
        `  pay(method: string) {`,
        `  @globalFunction pay(method: string) {`,
      )(s).replace("exec_node }", "exec_node, globalFunction }"),
    outcome: { stale: /node 'main\.call_\w+', where the conversation stands, is not what it was/ },
  },
];

/** The agent's graph for this source; a compile error fails the test. */
export function shopGraph(source: string): Graph {
  const { graph, diagnostics } = compile(source, { fileName: "shop/agent.ts" });
  if (!graph)
    throw new Error(
      `the edited agent does not compile:\n${diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join("\n")}`,
    );
  return graph;
}
