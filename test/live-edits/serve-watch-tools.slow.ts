// The tool playground under `autograms serve --watch --workers 1`, a real process: the server's
// thread holds a stand-in for the agent and imports none of its modules, so a tool called from
// GET /api/tools' list runs in the workers of the build served; after a save of the tool module
// and its rebuild, the same call answers what the new module returns.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliTestFolder, root } from "../cli/support/run-cli.js";
import { json } from "../server/support/harness.js";
import { serveWatching, told } from "./support/serve-process.js";

const folder = cliTestFolder("autograms-serve-watch-tools-");

const AGENT = `import { Autogram, chatExact } from "@autograms/runtime";
import { quote, square } from "./tools.js";

export default class Shop extends Autogram {
  price: unknown = 0;

  main() {
    chatExact("Hello!");
    this.price = quote({ item: "tea" });
    this.price = square(3);
    chatExact(\`That is \${this.price}.\`, { transitions: ["quit"] });
  }
}
`;

const TOOLS = (pence: number) => `import { isMainThread } from "node:worker_threads";
import { defineTool } from "@autograms/runtime";

export const quote = defineTool({
  name: "quote",
  description: "The price of an item, in pence.",
  parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
  run: ({ item }: { item: string }) => ({ item, pence: ${pence}, inWorker: !isMainThread }),
});

export function square(n: number): number {
  return n * n + ${pence};
}
`;

describe("the tool playground under autograms serve --watch", () => {
  beforeAll(() => symlinkSync(join(root, "node_modules"), join(folder(), "node_modules"), "dir"));

  it("calls the tools of the build served in its workers, and after a save, the new module's", async () => {
    const dir = join(folder(), "shop");
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.ts"), AGENT);
    writeFileSync(join(dir, "tools.ts"), TOOLS(30));
    const server = await serveWatching(dir, "1");
    const call = async (name: string, args: unknown) => {
      const res = await fetch(`${server.url}/api/tools/${name}/call`, json({ arguments: args }));
      expect(res.status).toBe(200);
      return res.json();
    };

    const listed = await (await fetch(`${server.url}/api/tools`)).json();
    expect(listed).toEqual({
      tools: [
        {
          name: "quote",
          description: "The price of an item, in pence.",
          parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
        },
        { name: "square", parameters: null },
      ],
    });
    expect(await call("quote", { item: "tea" })).toEqual({ result: { item: "tea", pence: 30, inWorker: true } });
    expect(await call("square", [3])).toEqual({ result: 39 });

    writeFileSync(join(dir, "tools.ts"), TOOLS(45));
    await told(server.stderr, /\(serving the new build/, 1);
    expect(await call("quote", { item: "tea" })).toEqual({ result: { item: "tea", pence: 45, inWorker: true } });
    expect(await call("square", [3])).toEqual({ result: 54 });
  });
});
