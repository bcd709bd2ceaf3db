/**
 * The agents a server serves (`autograms serve a.ts b.ts`, or a folder): the page of each is at
 * `agents/NAME/` under the app's root (the default agent's at the root too), and its requests,
 * all relative, go to that agent's routes, so each agent's threads are its own. The switcher in
 * the header shows only when there is more than one agent.
 */
import { api } from "./api.js";
import { el } from "./dom.js";

export interface ServedAgent {
  name: string;
  default: boolean;
}

let served: ServedAgent[] = [];

/** The agents served, the default one first (none until `loadAgents`). */
export const servedAgents = (): readonly ServedAgent[] => served;

/** The app's root, from this page's address (the page of an agent is at `agents/NAME/` under it). */
function appRoot(): string {
  return location.pathname.replace(/agents\/[^/]+\/$/, "");
}

/** The address of an agent's page. */
export function agentPage(agent: ServedAgent): string {
  return agent.default ? appRoot() : `${appRoot()}agents/${encodeURIComponent(agent.name)}/`;
}

/** Lists the agents; with more than one, a link to each in `nav`, the current one marked. */
export async function loadAgents(nav: HTMLElement, current: string): Promise<void> {
  served = (await api<{ agents: ServedAgent[] }>("GET", `${appRoot()}api/agents`)).agents;
  if (served.length < 2) return;
  nav.replaceChildren(
    ...served.map((a) =>
      el("a", { href: agentPage(a), text: a.name, ...(a.name === current && { "aria-current": "page" }) }),
    ),
  );
  nav.hidden = false;
}
