/**
 * What every part of the page shares: its elements, its state, and the actions the parts call on
 * each other. Parts reach each other only through `actions` (filled in by main.ts), so none
 * imports another and the page has no import cycle.
 */
import { byId } from "./dom.js";
import type { AgentInfo, ThreadInfo, Turn } from "./types.js";

/** The page's elements the parts share: each one's id in the page, and what kind of element it is. */
const UI = {
  agent: ["agent-name", HTMLElement],
  status: ["status", HTMLElement],
  threads: ["thread-list", HTMLElement],
  search: ["thread-search", HTMLInputElement],
  newThread: ["new-thread", HTMLButtonElement],
  messages: ["messages", HTMLElement],
  composer: ["composer", HTMLFormElement],
  input: ["input", HTMLTextAreaElement],
  send: ["send", HTMLButtonElement],
  stop: ["stop", HTMLButtonElement],
  regenerate: ["regenerate", HTMLButtonElement],
  graph: ["graph-box", HTMLElement],
  source: ["source-box", HTMLElement],
  sourceTab: ["source-tab", HTMLButtonElement],
  graphTab: ["graph-tab", HTMLButtonElement],
  fileSelect: ["file-select", HTMLSelectElement],
  nodeInfo: ["node-info", HTMLElement],
  lit: ["lit-label", HTMLElement],
  turns: ["turns", HTMLElement],
  threadUsage: ["thread-usage", HTMLElement],
  detail: ["turn-detail", HTMLElement],
} as const;

export type Ui = { [K in keyof typeof UI]: InstanceType<(typeof UI)[K][1]> };

export interface State {
  agent: AgentInfo | null;
  threadId: string | null;
  thread: ThreadInfo | null;
  turns: Turn[];
  running: boolean;
  selectedTurn: number | null;
}

/** A reply being shown: its bubble, filled as the run's events come. */
export interface ReplyView {
  reply: HTMLElement | null;
  resume?: boolean;
  shownUser?: boolean;
}

export interface Actions {
  loadThreads(): Promise<void>;
  selectThread(id: string): Promise<void>;
  renderThread(thread: ThreadInfo | null, turns: Turn[]): void;
  renderTimeline(): void;
  updateComposer(): void;
  follow(res: Response | null, view: ReplyView): Promise<void>;
  showPath(trace: string[] | undefined): void;
  light(node: string): void;
  clearMarks(): void;
  /** The studio's page named (pages.ts). */
  showPage(name: string): void;
  /** A node shown where it is: the playground's code pane, its source line chosen (or the graph's node). */
  showNode(name: string): void;
  /** The code pane at the agent's source (its graph when there is no source). */
  showSource(): void;
}

export interface App {
  ui: Ui;
  state: State;
  actions: Actions;
  status(text: string, isError?: boolean): void;
  /** Shows what `work` throws in the status line instead of losing it. */
  report(work: Promise<unknown>): void;
}

export function createApp(actions: (app: App) => Actions): App {
  const ui = Object.fromEntries(Object.entries(UI).map(([key, [id]]) => [key, byId(id)])) as Ui;
  const app: App = {
    ui,
    state: { agent: null, threadId: null, thread: null, turns: [], running: false, selectedTurn: null },
    actions: null as unknown as Actions,
    status(text, isError = false) {
      ui.status.textContent = text;
      ui.status.className = isError ? "error" : "";
    },
    report: (work) => void work.catch((e: Error) => app.status(e.message, true)),
  };
  app.actions = actions(app);
  return app;
}
