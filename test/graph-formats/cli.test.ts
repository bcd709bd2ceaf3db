// The graph, import and export commands, run as a user runs them: the built CLI (in the test's
// process: none of these cases is about processes).
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { importSpreadsheet, toMermaid, graphToJson } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";
import { autogramsInProcess, cliTestFolder, root } from "../cli/support/run-cli.js";

const fixtures = join(import.meta.dirname, "fixtures");
const sheets = join(import.meta.dirname, "spreadsheets");

async function autograms(...args: string[]) {
  const r = await autogramsInProcess(args);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

const folder = cliTestFolder("autograms-cli-");
let dir: string;
beforeAll(() => {
  dir = folder();
});

describe("autograms graph", () => {
  it("draws an agent as Mermaid on stdout, compiling it first", async () => {
    const r = await autograms("graph", "samples/tutor/agent.ts");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const graph = JSON.parse(readFileSync(join(root, "samples", "tutor", "agent.graph.json"), "utf8")) as Graph;
    expect(r.stdout).toBe(toMermaid(graph));
    expect(r.stdout).toContain('subgraph f1 ["global_function doUnit(topic, lesson, problem, answer)"]');
  });

  it("draws the code view with --view code, quoting the agent's source beside the graph file", async () => {
    const graph = JSON.parse(readFileSync(join(root, "samples", "tutor", "agent.graph.json"), "utf8")) as Graph;
    const source = readFileSync(join(root, "samples", "tutor", "agent.ts"), "utf8");
    const r = await autograms("graph", "samples/tutor/agent.graph.json", "--view", "code");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(toMermaid(graph, { view: "code", source }));
    expect(r.stdout).toContain("for (const unit of this.units) {");
    expect(r.stdout).not.toContain("_loop_");
    expect(await autograms("graph", "samples/tutor/agent.ts", "--view", "folded")).toMatchObject({
      status: 2,
      stdout: "",
    });
  });

  it("draws a graph file the same way, and DOT into a file with -o", async () => {
    expect((await autograms("graph", "samples/tutor/agent.graph.json")).stdout).toBe(
      (await autograms("graph", "samples/tutor/agent.ts")).stdout,
    );
    const out = join(dir, "tutor.dot");
    const r = await autograms("graph", "samples/tutor/agent.ts", "--format", "dot", "-o", out);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toMatch(/^digraph "FractionTutor" \{\n/);
  });

  it("still draws a graph with dangling names, says what is wrong and exits 1", async () => {
    const r = await autograms("graph", join(fixtures, "special-targets.graph.json"));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('["missing#58; nowhere"]');
    expect(r.stderr).toContain("error: node 'orphan': transition to missing node 'nowhere'");
  });

  it("prints compile errors tsc-style and draws nothing", async () => {
    const agent = join(dir, "broken.ts");
    writeFileSync(
      agent,
      'import { Autogram, chat } from "@autograms/runtime";\nexport default class A extends Autogram {\n  main() {\n    this.missing();\n  }\n}\n',
    );
    const r = await autograms("graph", agent);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/broken\.ts:4:\d+ - error unknown_method: /);
    expect(r.stderr).toContain("> 4 |     this.missing();");
  });

  it("usage errors exit 2, a missing file 1", async () => {
    expect(await autograms("graph", "samples/tutor/agent.ts", "--format", "svg")).toMatchObject({
      status: 2,
      stdout: "",
    });
    expect(await autograms("graph", "nowhere.ts")).toEqual({
      status: 1,
      stdout: "",
      stderr: "autograms graph: cannot read 'nowhere.ts': no such file\n",
    });
  });

  it("--help says what the command takes", async () => {
    const help = (await autograms("graph", "--help")).stdout;
    expect(help).toContain("Usage: autograms graph [options] <file>");
    // Other drawing languages may follow; these two and the default stay.
    expect(help).toMatch(
      /-f, --format <format>\s+the drawing language \(choices:\s+"mermaid",\s+"dot",[^)]*default:\s+"mermaid"\)/,
    );
    expect(help).toContain("-o, --out <file>");
  });
});

describe("autograms import / export", () => {
  it("imports a sheet into <name>.graph.json beside it", async () => {
    const csv = join(dir, "recruiter.csv");
    copyFileSync(join(sheets, "recruiter.csv"), csv);
    const r = await autograms("import", csv);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${join(dir, "recruiter.graph.json")} (15 nodes)\n`);
    const written = JSON.parse(readFileSync(join(dir, "recruiter.graph.json"), "utf8")) as Graph;
    // The graph names the sheet it came from, so run-time errors say recruiter.csv:ROW.
    expect(written.source?.file).toMatch(/recruiter\.csv$/);
    const expected = importSpreadsheet(readFileSync(csv, "utf8"), {
      agent: "Recruiter",
      fileName: written.source!.file,
    }).graph as Graph;
    expect(readFileSync(join(dir, "recruiter.graph.json"), "utf8")).toBe(graphToJson(expected));
  });

  it("reports a bad sheet with file:line:column, row and column, and a code frame", async () => {
    const csv = join(dir, "bad.csv");
    writeFileSync(csv, 'name,action,transitions\nstart,chat,"quit\nnext,chat,quit\n');
    const r = await autograms("import", csv, "-o", "-");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/bad\.csv:2:12 - error csv_syntax: row 2, column C: a quoted cell is never closed/);
    expect(r.stderr).toContain('> 2 | start,chat,"quit');
    expect(r.stderr).toMatch(/1 error in .*bad\.csv\n$/);
  });

  it("refuses to export, in the original's format, an agent it cannot hold, naming each node", async () => {
    const r = await autograms("export", "samples/tutor/agent.ts", "-o", join(dir, "refused.csv"));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the graph cannot be written in the original's spreadsheet format:\n  node '");
    expect(r.stderr).toContain("\n  node 'goodbye': its field 'setup' has no column in the original's sheets\n");
    expect(r.stderr).toContain("(--format autograms writes every field, for autograms import)");
    expect(existsSync(join(dir, "refused.csv"))).toBe(false);
  });

  it("exports an agent with --format autograms, warning about what the sheet leaves out, and imports it back", async () => {
    const out = join(dir, "tutor.csv");
    const r = await autograms("export", "samples/tutor/agent.ts", "-o", out, "--format", "autograms");
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      "autograms export: warning: the sheet leaves out the initial values of the global variables (units, correct): the sheet starts with none\n",
    );
    expect(readFileSync(out, "utf8").split("\n")[0]).toBe(
      "action,name,transitions,instruction,assign,user_instruction_transition_a,user_instruction_transition_b,transition_question,transition_choice_a,transition_choice_b,boolean_condition,def_type,setup,implicit_transitions",
    );
    const back = await autograms("import", out, "-o", "-");
    expect(back.status).toBe(0);
    const original = JSON.parse(readFileSync(join(root, "samples", "tutor", "agent.graph.json"), "utf8")) as Graph;
    const strip = (g: Graph) => g.nodes.map(({ loc: _loc, ...n }) => n);
    expect(strip(JSON.parse(back.stdout) as Graph)).toEqual(strip(original));
  });

  it("exports an agent whose code calls its tools, and imports it back with --tools", async () => {
    writeFileSync(
      join(dir, "shop.ts"),
      `import { Autogram, chat } from "@autograms/runtime";
import { lookupOrder } from "./shop-tools.js";

export default class Shop extends Autogram {
  main() {
    const order = lookupOrder("A17");
    chat(\`Tell the user about \${order}.\`);
  }
}
`,
    );
    writeFileSync(
      join(dir, "shop-tools.ts"),
      "export function lookupOrder(id: string) {\n  return `order ${id}`;\n}\n",
    );
    const out = join(dir, "shop.csv");
    const r = await autograms("export", join(dir, "shop.ts"), "-o", out, "--format", "autograms");
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      "the sheet leaves out the tools table (lookupOrder): give them to its import (autograms import --tools ./shop-tools.js)",
    );
    const refused = await autograms("import", out, "-o", "-");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("give the import the tools its code calls (autograms import --tools MODULE");
    const back = await autograms("import", out, "-o", "-", "--tools", join(dir, "shop-tools.ts"));
    expect(back.stderr).toBe("");
    expect(back.status).toBe(0);
    expect((JSON.parse(back.stdout) as Graph).tools).toEqual({
      lookupOrder: { module: "./shop-tools.ts", export: "lookupOrder" },
    });
    const none = await autograms("import", out, "--tools", join(dir, "shop.csv"));
    expect(none).toMatchObject({ status: 2 });
    expect(none.stderr).toContain("shop.csv: the module exports no functions to call as tools");
  });

  it("--help says what each command takes", async () => {
    expect((await autograms("import", "--help")).stdout).toMatch(
      /Usage: autograms import \[options\] <file\.csv>[\s\S]*-o, --out <file>[\s\S]*--agent <name>[\s\S]*--tools <module>/,
    );
    expect((await autograms("export", "--help")).stdout).toMatch(
      /Usage: autograms export \[options\] <file>[\s\S]*-o, --out <file>/,
    );
  });
});
