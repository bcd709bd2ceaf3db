/**
 * The studio's pages, as the command palette (Ctrl+K) offers them: each a panel of the page, named
 * by its element's id. A new page is offered by adding it here.
 */
export interface StudioPage {
  /** The id of the page's element (and the `data-panel` that shows it alone under 1000 px). */
  id: string;
  label: string;
}

export const PAGES: readonly StudioPage[] = [
  { id: "threads", label: "Threads" },
  { id: "chat", label: "Chat" },
  { id: "code", label: "Code" },
  { id: "timeline", label: "Turns" },
];

/** Shows a page (alone, under 1000 px, as the bar under the header does) and puts the focus in it. */
export function showPage(page: StudioPage): void {
  document.body.setAttribute("data-panel", page.id);
  const at = document.getElementById(page.id);
  at?.scrollIntoView({ block: "nearest" });
  at?.querySelector<HTMLElement>("textarea, input, button, select, [tabindex]")?.focus();
}
