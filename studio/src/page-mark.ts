/**
 * Which of the studio's pages is shown: the body's `data-page` (none for the studio itself, whose
 * panels the other pages hide) and the header's page buttons' `aria-current`.
 */
export function markPage(name: string): void {
  if (name === "studio") document.body.removeAttribute("data-page");
  else document.body.setAttribute("data-page", name);
  for (const b of document.querySelectorAll<HTMLButtonElement>("#pages [data-page]"))
    b.setAttribute("aria-current", String(b.dataset.page === name));
}
