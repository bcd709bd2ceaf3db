import { answeredCalls, callableTools, howToCall, plainCalls } from "./offline-tools.js";
import type {
  ChoiceRequest,
  CompletionPurpose,
  CompletionRequest,
  ToolCallingModel,
  ToolCompletion,
  ToolCompletionRequest,
} from "./types.js";
import { clip } from "../text/cut.js";
import { schemaExample } from "./schema-example.js";

/**
 * A model without a network, for demos and trying an agent out: deterministic, canned, and plainly
 * marked "(offline)". complete() says what the agent was instructed to do next, after echoing the
 * user's last message; choose() picks the answer that the user's last message supports by its words
 * (yes / no words, words shared with an answer), else "None of the above" when offered, else the first.
 * completeWithTools() calls a tool only when the user's text names it with its arguments as
 * `key=value` (see `offline-tools.ts`), then answers with the tools' results.
 * Asked for data (a thought's `schema`), it answers with a small value the schema takes.
 * Asked with `onText`, it writes its answer word by word, as a model that streams would.
 */
export class OfflineModel implements ToolCallingModel {
  readonly provider = "autograms";
  readonly model = "offline";
  private readonly wordDelayMs: number;

  /** `wordDelayMs`: a pause before each streamed word after the first (default 0), so a demo shows the text growing. */
  constructor(options: { wordDelayMs?: number } = {}) {
    const delay = options.wordDelayMs ?? 0;
    if (!(Number.isFinite(delay) && delay >= 0))
      throw new Error(
        `OfflineModel: wordDelayMs takes milliseconds (0 or more), not ${JSON.stringify(options.wordDelayMs)}`,
      );
    this.wordDelayMs = delay;
  }

  async complete(req: CompletionRequest): Promise<string> {
    const last = [...req.messages].reverse().find((m) => m.role === "user") ?? req.messages[req.messages.length - 1];
    if (req.schema) return this.write(JSON.stringify(schemaExample(req.schema)), req.onText, req.signal);
    const { instruction, user } = readPrompt(last?.content ?? "");
    return this.write(cannedReply(req.purpose, instruction, user), req.onText, req.signal);
  }

  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const at = req.messages.findLastIndex((m) => m.role === "user");
    const { instruction, user } = readPrompt(at >= 0 ? (req.messages[at]!.content ?? "") : "");
    const answered = answeredCalls(req.messages.slice(at + 1));
    let text: string;
    if (answered.length) {
      const results = answered.map(
        ({ call, result }) =>
          `${call.name} ${call.arguments} ${result.startsWith("Error: ") ? `failed: ${clip(result.slice(7), 200)}` : `gave ${clip(result, 200)}`}`,
      );
      text = `(offline) ${heard(user)}The tools answered: ${results.join("; ")}.`;
    } else {
      const calls = user ? plainCalls(user, callableTools(req)) : [];
      if (calls.length) return { text: "", toolCalls: calls, finishReason: "tool_calls" };
      const callable = callableTools(req);
      const advice = callable.length
        ? ` (Offline, I call a tool only when you name it with its arguments: ${howToCall(callable)}.)`
        : "";
      text = `${cannedReply("chat", instruction, user)}${advice}`;
    }
    return { text: await this.write(text, req.onText, req.signal), toolCalls: [], finishReason: "stop" };
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const user = lastUserLine(req.prompt);
    const evidence = user === undefined ? undefined : (yesNo(user, req.choices) ?? sharedWords(user, req.choices));
    if (evidence !== undefined) return evidence;
    const none = req.choices.findIndex((c) => /^none of the above/i.test(c.trim()));
    return none >= 0 ? none : 0;
  }

  /** Gives `text` to `onText` a word (with the space after it) at a time; the answer is the same text. */
  private async write(
    text: string,
    onText: ((delta: string) => void) | undefined,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    if (!onText) return text;
    const words = text.match(/\S+\s*|\s+/g) ?? [];
    for (const [i, word] of words.entries()) {
      if (i > 0 && this.wordDelayMs > 0) await pause(this.wordDelayMs, signal);
      if (signal?.aborted) break;
      onText(word);
    }
    return text;
  }
}

/** Waits `ms`, or until `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

// The runtime's prompt ends "<user's words>\n\nInstruction for Agent: <instruction>\nAgent's reply:".
const INSTRUCTION = /(?:^|\n)Instruction for [^:\n]*:[ \t]*([\s\S]*?)(?:\n[^\n]*'s reply:\s*)?$/;

function readPrompt(text: string): { instruction?: string; user?: string } {
  const found = INSTRUCTION.exec(text);
  const before = found ? text.slice(0, found.index) : text;
  const user = lastUserLine(before) ?? (found ? undefined : before);
  return { instruction: found?.[1]?.trim() || undefined, user: user?.trim() || undefined };
}

function lastUserLine(text: string): string | undefined {
  const at = text.lastIndexOf("User: ");
  if (at < 0 || (at > 0 && text[at - 1] !== "\n")) return undefined;
  return text
    .slice(at + "User: ".length)
    .split("\n\n")[0]!
    .trim();
}

const sentence = (s: string) => (/[.!?:)"']$/.test(s) ? s : `${s}.`);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const heard = (user: string | undefined) => (user ? `You said "${clip(user.replace(/\s+/g, " "), 60)}". ` : "");

function cannedReply(purpose: CompletionPurpose, instruction: string | undefined, user: string | undefined): string {
  if (purpose === "thought") return instruction ? thoughtReply(instruction, user) : "(offline) no thought.";
  if (purpose === "user") return `(offline user) ${sentence(instruction ?? "I have nothing to say")}`;
  if (!instruction) return `(offline) ${heard(user)}I have no model to answer with.`;
  return `(offline) ${heard(user)}${user ? "Next I would" : "I would"} ${sentence(lowerFirst(instruction))}`;
}

/** A thought that asks for one of some quoted words ("correct" or "wrong") gets one of them. */
function thoughtReply(instruction: string, user: string | undefined): string {
  const options = [...instruction.matchAll(/"([^"\n]{1,30})"/g)].map((m) => m[1]!);
  if (options.length >= 2) return options[(user ? sharedWords(user, options) : undefined) ?? 0]!;
  return `(offline) ${sentence(instruction)}`;
}

const YES = new Set([
  "yes",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "ready",
  "correct",
  "right",
  "definitely",
  "absolutely",
  "please",
  "let's",
  "lets",
  "y",
]);
const NO = new Set(["no", "nope", "nah", "not", "don't", "dont", "never", "stop", "later", "wrong", "n"]);

const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

function yesNo(user: string, choices: readonly string[]): number | undefined {
  const lower = choices.map((c) => c.trim().toLowerCase());
  const yes = lower.indexOf("yes");
  const no = lower.indexOf("no");
  if (yes < 0 || no < 0) return undefined;
  const words = wordsOf(user);
  const score = words.filter((w) => YES.has(w)).length - words.filter((w) => NO.has(w)).length;
  return score > 0 ? yes : score < 0 ? no : undefined;
}

const STOP = new Set([
  "the",
  "and",
  "for",
  "are",
  "was",
  "you",
  "your",
  "user",
  "that",
  "this",
  "with",
  "about",
  "wants",
  "want",
  "has",
  "have",
  "not",
  "none",
  "above",
]);

const related = (a: string, b: string) => Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a));

/** The answer sharing the most words with the user's text (earliest on a tie); undefined if none shares any. */
function sharedWords(user: string, choices: readonly string[]): number | undefined {
  const said = wordsOf(user).filter((w) => !STOP.has(w));
  let best: number | undefined;
  let bestScore = 0;
  choices.forEach((choice, i) => {
    const score = wordsOf(choice).filter((w) => !STOP.has(w) && said.some((s) => related(s, w))).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}
