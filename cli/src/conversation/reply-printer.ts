/**
 * How `chat` prints the agent's replies. Whole: one "Agent: ..." line once the turn is over (what
 * a pipe gets, so scripts see exactly the final text). Streaming, on a terminal: the line grows as
 * the model writes; when the text so far is withdrawn (the answer is generated again) the lines it
 * took are erased and the reply starts over in their place, so the screen never keeps withdrawn
 * text. Everything printed goes through plainText: a model's escape sequences never reach the
 * terminal, even split across pieces.
 */
import type { ReplyChunk } from "@autograms/runtime";
import { plainText } from "../terminal/plain-text.js";
import { cursorRow, expandTabs } from "../terminal/text-width.js";

export interface ReplyPrinter {
  /** For `RunOptions.onText`: undefined when replies are printed whole. */
  onText: ((chunk: ReplyChunk) => void) | undefined;
  /** The turn's reply (null: none): printed, or what the screen lacks of it, and the line ended. */
  reply(text: string | null): void;
  /** The turn failed or was stopped: the part of a reply on the screen is erased. */
  abandon(): void;
}

interface Screen {
  write(text: string): unknown;
  /** The terminal's width, when it is a terminal. */
  columns?: number;
}

export function replyPrinter(out: Screen, agentName: string, streaming: boolean): ReplyPrinter {
  const label = `${agentName}: `;
  if (!streaming) {
    return {
      onText: undefined,
      reply: (text) => void (text !== null && out.write(plainText(label + text) + "\n")),
      abandon: () => undefined,
    };
  }
  let raw = ""; // the reply's text since the last reset, as the runtime sent it
  let shown: string | null = null; // what the screen shows, label included; null: nothing of this turn yet
  const columns = () => out.columns || Number(process.env.COLUMNS) || 80;

  /** Erases what this turn printed (label included) and leaves the cursor where it began. */
  const erase = () => {
    if (shown === null) return;
    const up = cursorRow(shown, columns());
    out.write(`\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J`);
    shown = null;
  };
  /** Brings the screen to `text`: adds to it when it continues what is shown, else redraws. */
  const show = (text: string) => {
    // Tabs become spaces so that the rows the text takes are known (a tab's width depends on where it falls).
    const screen = expandTabs(plainText(label + text));
    if (shown !== null && screen.startsWith(shown)) {
      if (screen.length > shown.length) out.write(screen.slice(shown.length));
    } else {
      erase();
      out.write(screen);
    }
    shown = screen;
  };

  return {
    onText(chunk) {
      raw = chunk.kind === "reset" ? "" : raw + chunk.text;
      show(raw);
    },
    reply(text) {
      raw = "";
      if (text === null) return erase();
      show(text);
      out.write("\n");
      shown = null;
    },
    abandon() {
      raw = "";
      erase();
    },
  };
}
