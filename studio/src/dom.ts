/** Small DOM helpers: the page is plain DOM, no framework. */

type Props = Record<string, string | ((ev: Event) => void) | undefined>;

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

/** An element with attributes (`text` sets its text, `class` its classes, `on*` listeners) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  children?: (Node | null | undefined)[],
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined) continue;
    if (typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children ?? []) if (c) e.appendChild(c);
  return e;
}

export function newId(): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (x) => (x + 256).toString(16).slice(1)).join("");
}

/** A value as JSON, cut to `n` characters. */
export function short(value: unknown, n: number): string {
  const s = JSON.stringify(value === undefined ? null : value);
  return s.length > n ? `${s.slice(0, n - 1)}\u2026` : s;
}

export const enc = encodeURIComponent;

/** Text sent or received (a prompt, arguments, a result), as the turn's calls show it; `cls`: `error`. */
export const callText = (text: string, cls = "") => el("pre", { class: `call-text ${cls}`.trim(), text });

/** A line saying there is nothing (yet) to show, or what is coming. */
export const empty = (text: string) => el("p", { class: "empty", text });

/** The list's items, or one item saying there are none. */
export function fillList(list: HTMLElement, items: HTMLElement[], none: string): void {
  list.replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: none })]));
}

/** Marks the list's item whose `data-KEY` is `value` with `cls`, and no other. */
export function markItem(list: HTMLElement, key: string, value: string | null, cls: string): void {
  for (const li of list.querySelectorAll("li")) li.classList.toggle(cls, li.getAttribute(`data-${key}`) === value);
}

/** Where a list's arrow keys, Home and End move from item `at` of `count`; undefined for other keys. */
export function keyMove(key: string, at: number, count: number): number | undefined {
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: count - 1 }[key];
  return to === undefined ? undefined : Math.min(count - 1, Math.max(0, to));
}

/** A table with a heading row, in the box that lets it scroll sideways. */
export function tableOf(cls: string, head: string[], rows: HTMLElement[]): HTMLElement {
  const cells = head.map((h) => el("th", { text: h }));
  return el("div", { class: "table-wrap" }, [
    el("table", { class: cls }, [el("thead", null, [el("tr", null, cells)]), el("tbody", null, rows)]),
  ]);
}
