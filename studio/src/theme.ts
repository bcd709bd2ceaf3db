/**
 * The colour theme: the system's (the default), light or dark, chosen with the header's button
 * and kept for the next visit. The style reads it from `data-theme` on the root element.
 */
const THEMES = ["system", "light", "dark"] as const;
type Theme = (typeof THEMES)[number];
const KEY = "autograms-theme";

function saved(): Theme {
  const value = localStorage.getItem(KEY);
  return THEMES.includes(value as Theme) ? (value as Theme) : "system";
}

function apply(button: HTMLButtonElement, theme: Theme): void {
  if (theme === "system") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", theme);
  button.textContent = `Theme: ${theme}`;
  button.setAttribute("data-theme-choice", theme);
}

/** Applies the saved theme; each press of the button moves to the next one. */
export function wireTheme(button: HTMLButtonElement): void {
  let theme = saved();
  apply(button, theme);
  button.addEventListener("click", () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
    localStorage.setItem(KEY, theme);
    apply(button, theme);
  });
}
