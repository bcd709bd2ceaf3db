// `autograms graph --format html` as text: a self-contained page (no external resource, every node
// linked to its source line) that keeps hostile text as text. The page in a real browser is
// graph-html-chromium.slow.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { toHtml } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";
import { graph, n } from "../runtime/helpers.js";
import { sampleGraph } from "./support.js";

let tutor: Graph;
beforeAll(() => {
  tutor = sampleGraph("tutor");
});

describe("toHtml as text", () => {
  it("is one self-contained page: no external resource, every node in the SVG with its source link", () => {
    const html = toHtml(tutor);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b|<img\b|@import|url\((?!#)/i);
    for (const node of tutor.nodes) expect(html).toContain(`data-node="${node.name}"`);
    expect(html).toContain('<a href="samples/tutor/agent.ts#L44" class="source"><text');
    expect(html.match(/<g class="cluster"/g)).toHaveLength(4);
  });

  it("keeps hostile text as text: nothing in a node ends the script or opens an element", () => {
    const g = graph([
      n({
        name: "x",
        action: "chat_exact",
        instruction: "</script><img src=x onerror=alert(1)> & \u2028 \"'",
        transitions: ["quit"],
      }),
    ]);
    const html = toHtml(g, { title: "<b>t</b>" });
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>t</b>");
    expect(html).toContain("&#60;b&#62;t&#60;/b&#62;");
  });
});
