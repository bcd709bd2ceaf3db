/**
 * What every part of the page shares: its elements, its state, and the actions the parts call on
 * each other. Parts reach each other only through `actions` (filled in by main.ts), so none
 * imports another and the page has no import cycle.
 */
import { byId } from "./dom.js";
import type { AgentInfo, ThreadInfo, Turn } from "./types.js";

export interface Ui {
  agent: HTMLElement;
  status: HTMLElement;
  threads: HTMLElement;
  search: HTMLInputElement;
  newThread: HTMLButtonElement;
  messages: HTMLElement;
  composer: HTMLFormElement;
  input: HTMLTextAreaElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
  regenerate: HTMLButtonElement;
  graph: HTMLElement;
  source: HTMLElement;
  sourceTab: HTMLButtonElement;
  graphTab: HTMLButtonElement;
  fileSelect: HTMLSelectElement;
  nodeInfo: HTMLElement;
  lit: HTMLElement;
  turns: HTMLElement;
  threadUsage: HTMLElement;
  detail: HTMLElement;
}

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
}

export function createApp(actions: (app: App) => Actions): App {
  const ui: Ui = {
    agent: byId("agent-name"),
    status: byId("status"),
    threads: byId("thread-list"),
    search: byId("thread-search"),
    newThread: byId("new-thread"),
    messages: byId("messages"),
    composer: byId("composer"),
    input: byId("input"),
    send: byId("send"),
    stop: byId("stop"),
    regenerate: byId("regenerate"),
    graph: byId("graph-box"),
    source: byId("source-box"),
    sourceTab: byId("source-tab"),
    graphTab: byId("graph-tab"),
    fileSelect: byId("file-select"),
    nodeInfo: byId("node-info"),
    lit: byId("lit-label"),
    turns: byId("turns"),
    threadUsage: byId("thread-usage"),
    detail: byId("turn-detail"),
  };
  const app: App = {
    ui,
    state: { agent: null, threadId: null, thread: null, turns: [], running: false, selectedTurn: null },
    actions: null as unknown as Actions,
    status(text, isError = false) {
      ui.status.textContent = text;
      ui.status.className = isError ? "error" : "";
    },
  };
  app.actions = actions(app);
  return app;
}
