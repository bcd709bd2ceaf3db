import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import type { Graph, GraphNode } from "@autograms/runtime";
import { compileOk, fixtureSource } from "./support/compile.js";

// A saved conversation points at node names, so an automatic name must not change when other
// statements are added or removed. Each test edits a real agent at every possible place and
// checks that every node not made by the edited statement keeps its name and its content.
const agents = ["design-example", "loops", "if-else", "hoisting", "switch", "functions"];

/** What a node is, apart from where it goes next and where it sits in the file. */
function identity(node: GraphNode): string {
  const { transitions: _t, loc: _l, ...rest } = node;
  return JSON.stringify(rest);
}

function byName(graph: Graph): Map<string, string> {
  return new Map(graph.nodes.map((n) => [n.name, identity(n)]));
}

/** Line indexes after which a whole statement can be inserted, or which hold one whole statement. */
function statementLines(lines: string[]): number[] {
  return lines.flatMap((line, i) =>
    /^\s+[^\s/].*;\s*$/.test(line) &&
    !/^\s+(return|break|continue|case|default)\b/.test(line) &&
    !/[,(]\s*$/.test(lines[i - 1] ?? "")
      ? [i]
      : [],
  );
}

/** Statement lines whose removal leaves every other statement meaning the same (no declarations). */
function removableLines(lines: string[]): number[] {
  return statementLines(lines).filter((i) => !/\b(const|let|var)\b/.test(lines[i]!));
}

describe("automatic node names are stable", () => {
  for (const agent of agents) {
    const source = fixtureSource(agent);
    const before = byName(compileOk(source));
    const lines = source.split("\n");

    it(`${agent}: inserting a statement anywhere renames no other node`, () => {
      let edits = 0;
      for (const i of statementLines(lines)) {
        const indent = /^\s*/.exec(lines[i]!)![0];
        const edited = [
          ...lines.slice(0, i + 1),
          `${indent}chat("An inserted line ${i}.");`,
          ...lines.slice(i + 1),
        ].join("\n");
        const result = compile(edited, { fileName: "agent.ts" });
        if (!result.graph) continue;
        edits++;
        const after = byName(result.graph);
        for (const [name, node] of before) {
          expect(after.get(name), `after inserting at line ${i + 1}, node ${name}`).toBe(node);
        }
        expect(after.size).toBeGreaterThan(before.size);
      }
      expect(edits).toBeGreaterThan(2);
    });

    it(`${agent}: removing a statement removes only its own nodes`, () => {
      let edits = 0;
      for (const i of removableLines(lines)) {
        const edited = [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n");
        const result = compile(edited, { fileName: "agent.ts" });
        if (!result.graph) continue;
        edits++;
        for (const node of result.graph.nodes) {
          if (!before.has(node.name)) continue;
          expect(identity(node), `after removing line ${i + 1}, node ${node.name}`).toBe(before.get(node.name));
        }
        const kept = result.graph.nodes.filter((n) => before.has(n.name)).length;
        // Only the removed statement's own nodes go (a hoisted call brings a second one, a loop several).
        expect(before.size - kept).toBeGreaterThan(0);
        expect(result.graph.nodes.length - kept).toBe(0);
      }
      expect(edits).toBeGreaterThan(2);
    });
  }

  it("names say where a node comes from: function, construct, and the construct's branch", () => {
    const graph = compileOk(fixtureSource("if-else"));
    const names = graph.nodes.map((n) => n.name);
    expect(names[0]).toBe("main");
    expect(names).toContain("main.if_e6e8.a");
    expect(names.every((n) => n === "main" || /^main\.(if|chat)_[0-9a-f]{4}/.test(n))).toBe(true);
    expect(names.filter((n) => n.startsWith("main.if_95cf.c.")).length).toBeGreaterThan(2);
  });

  it("identical statements are told apart by occurrence", () => {
    const graph = compileOk(`import { Autogram, chat } from "@autograms/runtime";
export default class A extends Autogram {
  main() { chat("Hi."); chat("Hi."); chat("Hi."); }
}`);
    const chats = graph.nodes.filter((n) => n.action === "chat").map((n) => n.name);
    expect(chats).toHaveLength(3);
    expect(chats[1]).toBe(`${chats[0]}_2`);
    expect(chats[2]).toBe(`${chats[0]}_3`);
  });

  it("explicit names are used exactly as written", () => {
    const graph = compileOk(fixtureSource("transitions"));
    for (const name of ["start", "pick.a", "pick.b", "visit.1", "visit.2", "choose", "finish"]) {
      expect(graph.nodes.some((n) => n.name === name)).toBe(true);
    }
  });
});
