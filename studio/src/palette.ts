/**
 * The command palette (Ctrl+K, or Cmd+K): one search over the agents, the threads and the pages,
 * used by keyboard alone. The input is a combobox over a listbox: arrows move the active option
 * (`aria-activedescendant`), Enter takes it, Escape closes and gives the focus back.
 */
import { el } from "./dom.js";

export interface Command {
  /** What it is, shown before it: `Agent`, `Thread`, `Page`. */
  kind: string;
  label: string;
  /** More to match on and show (a thread's id). */
  detail?: string;
  run(): void;
}

export interface PaletteParts {
  dialog: HTMLElement;
  input: HTMLInputElement;
  list: HTMLElement;
  empty: HTMLElement;
}

export function wirePalette({ dialog, input, list, empty }: PaletteParts, commands: () => Command[]): () => void {
  let shown: Command[] = [];
  let active = 0;
  let before: HTMLElement | null = null;

  const render = () => {
    const q = input.value.trim().toLowerCase();
    shown = commands().filter((c) => `${c.kind} ${c.label} ${c.detail ?? ""}`.toLowerCase().includes(q));
    active = Math.min(active, Math.max(0, shown.length - 1));
    list.replaceChildren(
      ...shown.map((c, i) =>
        el(
          "li",
          {
            id: `palette-option-${i}`,
            role: "option",
            "aria-selected": String(i === active),
            onclick: () => take(i),
          },
          [
            el("span", { class: "kind", text: c.kind }),
            el("span", { class: "label", text: c.label }),
            c.detail ? el("span", { class: "detail", text: c.detail }) : null,
          ],
        ),
      ),
    );
    empty.hidden = shown.length > 0;
    if (shown.length > 0) {
      input.setAttribute("aria-activedescendant", `palette-option-${active}`);
      list.children[active]?.scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  };
  const close = () => {
    dialog.hidden = true;
    input.setAttribute("aria-expanded", "false");
    before?.focus();
  };
  const take = (i: number) => {
    const command = shown[i];
    if (!command) return;
    dialog.hidden = true;
    input.setAttribute("aria-expanded", "false");
    command.run();
  };
  const open = () => {
    before = document.activeElement as HTMLElement | null;
    input.value = "";
    active = 0;
    dialog.hidden = false;
    input.setAttribute("aria-expanded", "true");
    render();
    input.focus();
  };

  document.addEventListener("keydown", (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === "k") {
      ev.preventDefault();
      if (dialog.hidden) open();
      else close();
    }
  });
  input.addEventListener("input", () => {
    active = 0;
    render();
  });
  input.addEventListener("keydown", (ev) => {
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1 };
    if (ev.key in moves && shown.length > 0) {
      ev.preventDefault();
      active = (moves[ev.key]! + shown.length) % shown.length;
      render();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      take(active);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    } else if (ev.key === "Tab") ev.preventDefault(); // the focus stays in the dialog
  });
  // A click beside the box closes it.
  dialog.addEventListener("click", (ev) => ev.target === dialog && close());
  return open;
}
