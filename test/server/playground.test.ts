// The playground (`GET /`): its files as served. The page itself in headless Chromium against a
// real server is playground-chromium.slow.ts (and the studio's, graph views' and builds' files).
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { playgroundFiles, playgroundGraph } from "../../server/src/playground/routes.js";
import { tutor } from "./support/playground-page.js";

describe("the playground's files", () => {
  const app = playgroundFiles().route("/", playgroundGraph({ graph: () => tutor, drawGraph: (g) => toSvg(g) }));

  it("serves a page that loads only its own script and style, under a content security policy", async () => {
    const res = await app.request("/");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'self'; script-src 'self';/);
    const html = await res.text();
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    // Besides its files, one link: to the API's page, on the same server.
    expect(refs.sort()).toEqual(["api/docs", "data:,", "playground/app.js", "playground/style.css"]);
    expect(html).not.toMatch(/<script>|\bon\w+="/);
  });

  it("serves its script and style from strings in the package: JavaScript that parses, nothing from another origin", async () => {
    const js = await app.request("/playground/app.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const script = await js.text();
    expect(() => new Function(script)).not.toThrow();
    const css = await (await app.request("/playground/style.css")).text();
    for (const text of [script, css]) expect(text).not.toMatch(/https?:\/\/|@import|url\(/);
  });

  it("draws the graph with the function it is given, and says so when it has none", async () => {
    const svg = await app.request("/playground/graph.svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    // Opened alone, the picture is a document: nothing in it runs or loads.
    expect(svg.headers.get("content-security-policy")).toMatch(/^default-src 'none';.*; sandbox$/);
    expect(await svg.text()).toBe(toSvg(tutor));
    const bare = playgroundGraph({ graph: () => tutor });
    const none = await bare.request("/playground/graph.svg");
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({
      error: { code: "not_found", message: "this server draws no graph (it was given no drawGraph function)" },
    });
  });
});
