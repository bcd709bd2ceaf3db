/**
 * `GET /`: the playground, a page to talk to the agent served and watch it run: threads, a chat
 * whose replies stream in, the graph with the node being run lit, the turns with the memory each
 * left and the variables each changed, and forking from any turn. Its three files are strings in
 * this package (no file is read at run time, nothing is fetched from elsewhere), so it works the
 * same from the package, from the CLI's bundle and offline.
 */
import { Hono } from "hono";
import type { Graph } from "@autograms/runtime";
import { badRequest } from "../http/errors.js";
import { CLIENT_SCRIPT } from "./client-script.generated.js";
import { PAGE } from "./page.js";
import { STYLE } from "./style.js";

/** A source file the playground shows: the agent's (whose lines the graph's nodes name) or a module it imports. */
export interface PlaygroundSource {
  /** The path as the user reads it (relative to where the server was started). */
  path: string;
  text: string;
  /** `agent`: the file the graph was compiled from; `module`: a tool or action module it imports. */
  role: "agent" | "module";
}

export interface PlaygroundOptions {
  /** The graph served (read on each request, so a server that reloads its agent shows the new one). */
  graph: () => Graph;
  /**
   * The agent's sources, handed over when the server starts (the CLI reads the agent file and the
   * modules its tools and actions come from). Read on each request, like the graph. Nothing is
   * ever read from a path named in a request: the page shows these texts or nothing.
   */
  sources?: () => readonly PlaygroundSource[];
  /**
   * Draws the graph as SVG: the compiler's `toSvg`. Without it the page lists the nodes instead of
   * drawing them (the server does not depend on the compiler; the CLI passes it). `view` is `code`
   * (the compiler's nodes folded into the statements they came from, the page's default) or `raw`
   * (`?view=raw`); `source` is the agent's source text when the server was given it, for labels
   * that quote the code.
   */
  drawGraph?: (graph: Graph, options: { view: GraphView; source?: string }) => string;
}

/** What `GET /playground/graph.svg?view=` draws. */
export type GraphView = "code" | "raw";
const VIEWS: readonly GraphView[] = ["code", "raw"];

// The SVG brings its own <style>, hence 'unsafe-inline' for styles; scripts only from the page's origin.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/**
 * The graph's picture opened alone (its address typed, a link followed) is a document of its own:
 * its text comes from the agent's source, so nothing in it may run or load anything; its own
 * <style> may apply.
 */
const SVG_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; sandbox";
const COMMON = { "cache-control": "no-cache", "x-content-type-options": "nosniff" };

/**
 * The page, its script and its style: they hold nothing of the agent or its conversations, so a
 * server with a token serves them without it (a browser opening the page cannot send one; the
 * page then sends the token with every API request).
 */
export function playgroundFiles(): Hono {
  const app = new Hono();
  // The page of each agent of a server of many is at /agents/NAME/: its requests, all relative, go to that agent's routes.
  for (const at of ["", "/agents/:agent"]) {
    app.get(`${at}/`, (c) =>
      c.body(PAGE, 200, { ...COMMON, "content-type": "text/html; charset=utf-8", "content-security-policy": CSP }),
    );
    app.get(`${at}/playground/app.js`, (c) =>
      c.body(CLIENT_SCRIPT, 200, { ...COMMON, "content-type": "text/javascript; charset=utf-8" }),
    );
    app.get(`${at}/playground/style.css`, (c) =>
      c.body(STYLE, 200, { ...COMMON, "content-type": "text/css; charset=utf-8" }),
    );
  }
  return app;
}

/** The graph's picture and the agent's sources, which show its nodes and instructions: behind the token, like `/api/agent`. */
export function playgroundGraph(options: PlaygroundOptions): Hono {
  return playgroundBuild(() => ({ graph: options.graph(), sources: options.sources?.() ?? [] }), options.drawGraph);
}

/** `playgroundGraph` of the build served now (`served`: its graph and sources, taken together once per request). */
export function playgroundBuild(
  served: () => { graph: Graph; sources: readonly PlaygroundSource[] },
  drawGraph?: PlaygroundOptions["drawGraph"],
): Hono {
  const app = new Hono();
  const drawn = new WeakMap<Graph, Map<GraphView, string>>();
  app.get("/playground/graph.svg", (c) => {
    if (!drawGraph)
      return c.json(
        { error: { code: "not_found", message: "this server draws no graph (it was given no drawGraph function)" } },
        404,
      );
    const view = (c.req.query("view") ?? "code") as GraphView;
    if (!VIEWS.includes(view)) throw badRequest(`view: ${VIEWS.join(" or ")} is expected, not '${view}'`, "view");
    const { graph, sources } = served();
    let views = drawn.get(graph);
    if (views === undefined) drawn.set(graph, (views = new Map()));
    let svg = views.get(view);
    if (svg === undefined) {
      const source = sources.find((s) => s.role === "agent")?.text;
      views.set(view, (svg = drawGraph(graph, source === undefined ? { view } : { view, source })));
    }
    return c.body(svg, 200, {
      ...COMMON,
      "content-type": "image/svg+xml; charset=utf-8",
      "content-security-policy": SVG_CSP,
    });
  });
  // The sources show the agent's code and prompts: behind the token, like the graph.
  app.get("/playground/sources", (c) => c.json({ files: served().sources }, 200, COMMON));
  return app;
}
