import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replyOf, type Memory, type Simulation, type TraceSink } from "@autograms/runtime";

export type Message = Simulation["transcript"][number];

export interface ConversationRecord {
  agent: string;
  /** The agent source (see `sourceName`). */
  source: string;
  conversation: number;
  of: number;
  seed: number;
  ended: Simulation["ended"] | "error";
  /** The runtime error that stopped the conversation, with its location when it has one. */
  error?: { message: string; location?: string };
  transcript: Message[];
  memory: Memory | null;
}

/**
 * The messages of a conversation rebuilt from its trace, for a conversation that failed before
 * simulate() could return its transcript: replies are the outputs of chat nodes, and user
 * messages arrive as `user` events.
 */
export class TraceTranscript {
  readonly messages: Message[] = [];

  readonly sink: TraceSink = (event) => {
    if (event.kind === "user") this.messages.push({ role: "user", text: event.text });
    else {
      const reply = replyOf(event);
      if (reply !== undefined) this.messages.push({ role: "agent", text: reply });
    }
  };
}

/** Writes `<name>.json` (everything) and `<name>.md` (the conversation, to read). */
export function writeTranscript(
  dir: string,
  name: string,
  record: ConversationRecord,
): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, `${name}.json`);
  const markdown = join(dir, `${name}.md`);
  writeFileSync(json, JSON.stringify(record, null, 2) + "\n");
  writeFileSync(markdown, toMarkdown(record));
  return { json, markdown };
}

const ENDINGS: Record<ConversationRecord["ended"], string> = {
  quit: "the agent ended the conversation",
  end_signal: "the simulated user ended the conversation",
  max_turns: "the turn limit was reached",
  error: "the run failed",
};

function toMarkdown(r: ConversationRecord): string {
  const lines = [
    `# ${r.agent}: simulated conversation ${r.conversation} of ${r.of}`,
    "",
    `Seed ${r.seed}, agent ${r.source}.`,
    "",
  ];
  for (const m of r.transcript) {
    // Markdown joins lines of a paragraph; two trailing spaces keep the message's own line breaks.
    lines.push(`**${m.role === "agent" ? "Agent" : "User"}:** ${m.text.split("\n").join("  \n")}`, "");
  }
  lines.push(`_End: ${ENDINGS[r.ended]}._`);
  if (r.error) lines.push("", "```", r.error.message, "```");
  return lines.join("\n") + "\n";
}
