/**
 * A frame's prompt is memory: `setPrompt` stores its text in the frame when it runs, and a thread
 * goes on with it after the agent's text is edited. These are the frames whose function sets a
 * prompt other than the one they hold: told where the graph says so without doubt (the function
 * sets one constant prompt and appends none), so that a thread can take the new text
 * (`Agent.migrate(..., { takePrompts: true })`).
 */
import type { MemoryBody } from "../memory/types.js";
import { functionsReaching } from "../memory/resume.js";
import type { Program } from "../engine/program.js";

export interface PromptChange {
  /** The frame's position on the stack (0: main). */
  frame: number;
  /** Its function; null for main. */
  function: string | null;
  /** The prompt the frame holds. */
  stored: string;
  /** The one its function sets in the graph. */
  prompt: string;
}

export function promptChanges(program: Program, body: Pick<MemoryBody, "stack">): PromptChange[] {
  const changes: PromptChange[] = [];
  body.stack.forEach((frame, at) => {
    const fn = frame.function ?? "";
    const texts = new Set<string>();
    let certain = true;
    for (const cn of program.nodes.values()) {
      if (cn.as !== "set_prompt" && cn.as !== "append_prompt") continue;
      if (!functionsReaching(program, cn.node.name)?.has(fn)) continue;
      const text = cn.text;
      if (cn.as === "append_prompt" || !text?.constant) certain = false;
      else texts.add(text.segments.length ? (text.segments[0] as { text: string }).text : "");
    }
    const [prompt] = texts;
    if (certain && texts.size === 1 && prompt !== frame.prompt)
      changes.push({ frame: at, function: frame.function ?? null, stored: frame.prompt, prompt: prompt! });
  });
  return changes;
}

/** The memory with each change's prompt in its frame. */
export function withPrompts<T extends Pick<MemoryBody, "stack">>(body: T, changes: PromptChange[]): T {
  const by = new Map(changes.map((c) => [c.frame, c.prompt]));
  return { ...body, stack: body.stack.map((f, i) => (by.has(i) ? { ...f, prompt: by.get(i)! } : f)) };
}
