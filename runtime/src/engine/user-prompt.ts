/**
 * The simulated user's view of the conversation (docs/semantics.md#user-simulation): the agent's replies are its
 * inputs (`Agent: …`), its own earlier messages its outputs, its prompt first, and the last
 * input carries the instruction for this answer. The original's off-by-one pairing, its missing
 * `": "` and its dropped first-turn prompt are not reproduced.
 */
import type { ChatMessage } from "../model/types.js";
import type { AgentConfig } from "./config.js";
import type { Turn } from "../memory/types.js";
import { keepEnd } from "../text/cut.js";

export function buildUserMessages(
  turns: readonly Turn[],
  userPrompt: string,
  instruction: string | undefined,
  config: AgentConfig,
): ChatMessage[] {
  let said: ChatMessage[] = [];
  const push = (role: ChatMessage["role"], content: string) => {
    const last = said[said.length - 1];
    if (last && last.role === role) said[said.length - 1] = { role, content: `${last.content}\n\n${content}` };
    else said.push({ role, content });
  };
  let lastReply = "";
  turns.forEach((t, i) => {
    if (t.user) push("assistant", t.user);
    if (t.kind !== "chat") return;
    if (i === turns.length - 1) lastReply = t.agent;
    else push("user", `${config.agentName}: ${t.agent}`);
  });
  const lastResponse = `${config.agentName}: ${lastReply}`;
  let final = instruction
    ? config.userInstructionTemplate.replace(/<(last_response|instruction)>/g, (_w, k: string) =>
        k === "instruction" ? instruction : lastResponse,
      )
    : lastResponse;
  if (config.replyStartType === "suffix") final += `\n${config.userName}'s reply:`;
  push("user", final);
  if (said[0]!.role === "user") said[0] = { role: "user", content: `${userPrompt}\n\n${said[0]!.content}` };
  else said.unshift({ role: "user", content: userPrompt });
  // Over the budget, the oldest exchanges go first (the prompt stays in front).
  const count = (m: ChatMessage[]) => m.reduce((n, x) => n + config.countTokens(x.content), 0);
  while (said.length > 3 && count(said) > config.maxInputTokens) {
    said = [{ role: "user", content: `${userPrompt}\n\n${said[2]!.content}` }, ...said.slice(3)];
  }
  const last = said[said.length - 1]!;
  if (count(said) > config.maxInputTokens)
    said[said.length - 1] = { ...last, content: keepEnd(last.content, config.maxInputTokens, config.countTokens) };
  return said;
}

/** A model playing the user tends to label or embellish its answer; keep the message itself. */
export function cleanUserReply(text: string, config: AgentConfig): string {
  let out = text.replaceAll("**", "").trim();
  const cut = out.indexOf("\n\n");
  if (cut > 5) out = out.slice(0, cut);
  const labels = [`${config.userName}'s reply:`, `${config.userName}:`];
  for (const label of labels) {
    if (out.toLowerCase().startsWith(label.toLowerCase())) out = out.slice(label.length).trim();
  }
  return out;
}
