// `autograms serve --watch`, a real process, saved as editors save: an atomic save (the new text
// written to a temporary file renamed over the original), `sed -i` (the same by another tool), then
// a plain write, in the agent's folder and in a folder under it. Each save is built: a watch that
// follows the replaced file's inode would see the first rename and nothing after.
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, symlinkSync, writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { cliTestFolder, root } from "../cli/support/run-cli.js";
import { chatBody, json, textOf, uiChunks, uiMessageOf, userMessage } from "../server/support/harness.js";
import { serveWatching, told } from "./support/serve-process.js";

const folder = cliTestFolder("autograms-watch-saves-");

const AGENT = (greeting: string) => `import { Autogram, chatExact } from "@autograms/runtime";
import { price } from "./tools/prices.js";

export default class Stall extends Autogram {
  main() {
    chatExact("${greeting}");
    chatExact(\`That is \${price()} pence.\`, { transitions: ["quit"] });
  }
}
`;
const PRICES = (pence: number) => `export function price(): number {\n  return ${pence};\n}\n`;

/** As an editor saves: the whole text into a temporary file beside it, renamed over it. */
function atomicSave(file: string, text: string): void {
  writeFileSync(`${file}.tmp~`, text);
  renameSync(`${file}.tmp~`, file);
}

describe("autograms serve --watch, saves by rename", () => {
  beforeAll(() => symlinkSync(join(root, "node_modules"), join(folder(), "node_modules"), "dir"));

  // The first save comes as soon as the server says it listens: it missed that save on a busy
  // machine while the folder was watched only after 'listening' was printed.
  it("builds every save after an atomic save or sed -i, in the agent's folder and under it", {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(folder(), "stall-"));
    mkdirSync(join(dir, "tools"), { recursive: true });
    const agentFile = join(dir, "agent.ts");
    const pricesFile = join(dir, "tools", "prices.ts");
    writeFileSync(agentFile, AGENT("Hello!"));
    writeFileSync(pricesFile, PRICES(30));
    const server = await serveWatching(dir, "1");
    let builds = 0;
    const built = () => told(server.stderr, /\(serving the new build/, ++builds);
    let n = 0;
    const firstTurn = async () => {
      const res = await fetch(`${server.url}/api/chat`, json(chatBody(`t${++n}`, [userMessage(`m${n}`, "hi")])));
      expect(res.status).toBe(200);
      return textOf(await uiMessageOf(await uiChunks(res.body!))).join(" ");
    };

    atomicSave(agentFile, AGENT("Hi!"));
    await built();
    expect(await firstTurn()).toBe("Hi! That is 30 pence.");
    atomicSave(agentFile, AGENT("Hey!"));
    await built();
    expect(await firstTurn()).toBe("Hey! That is 30 pence.");
    writeFileSync(agentFile, AGENT("Howdy!"));
    await built();
    expect(await firstTurn()).toBe("Howdy! That is 30 pence.");

    // The tool module, in a folder under the agent's: sed -i, then an atomic save, then a plain write.
    execFileSync("sed", ["-i", "s/return 30/return 40/", pricesFile]);
    await built();
    expect(await firstTurn()).toBe("Howdy! That is 40 pence.");
    atomicSave(pricesFile, PRICES(50));
    await built();
    expect(await firstTurn()).toBe("Howdy! That is 50 pence.");
    writeFileSync(pricesFile, PRICES(60));
    await built();
    expect(await firstTurn()).toBe("Howdy! That is 60 pence.");

    // A folder made after the server started is watched too.
    mkdirSync(join(dir, "more"));
    writeFileSync(join(dir, "more", "prices.ts"), PRICES(70));
    await built();
    atomicSave(agentFile, AGENT("Hello again!").replace("./tools/prices.js", "./more/prices.js"));
    await built();
    expect(await firstTurn()).toBe("Hello again! That is 70 pence.");
  });
});
