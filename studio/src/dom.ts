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
