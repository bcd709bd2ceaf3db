// The real `autograms serve` process: it starts, prints where it listens, answers as `autograms
// chat` does for the same messages, requires a token off loopback, serves no playground with
// --no-playground; another server on the same SQLite file follows a run it is streaming, and
// after it is killed outright gives a client the rest of that run.
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import { openStore } from "@autograms/store";
import { isAlive, processGone } from "../support/process-alive.js";
import { autograms, autogramsInProcess, bin, cliTestFolder, replies, root } from "../cli/support/run-cli.js";
import {
  chatBody,
  json,
  sseFrames,
  startTestServer,
  textOf,
  uiChunks,
  uiMessageOf,
  userMessage,
} from "./support/harness.js";

const folder = cliTestFolder("autograms-serve-cli-");
const TUTOR = join(root, "samples/tutor/agent.ts");
// The last one is answered by a chat node, which the offline model writes word by word.
const MESSAGES = ["yes, ready", "no questions", "3/4", "ok", "yes, why does that rule work?"];
const children: ChildProcess[] = [];
/** Servers started by a launcher of a test (not children of this process): stopped even when the test fails. */
const launched: number[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  for (const pid of launched) if (isAlive(pid)) process.kill(pid, "SIGKILL");
});

/** `autograms serve ...`, resolved once it prints where it listens. */
function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, "serve", ...args], { cwd: folder(), env: { ...process.env, ...env } });
  children.push(child);
  let stdout = "";
  let stderr = "";
  const exit = new Promise<number | null>((r) => child.on("close", r));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(stdout);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr, exit });
    });
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    void exit.then((code) => reject(new Error(`serve exited ${code} before listening:\n${stdout}\n${stderr}`)));
  });
}

describe("autograms serve", () => {
  it("serves the agent: the replies are chat's for the same messages; off loopback only with the token; killed, its runs are still resumable", async () => {
    const dbUrl = `sqlite:${join(folder(), "threads.db")}`;
    const token = "t0ken-for-tests";
    const [chat, server] = await Promise.all([
      autograms(["chat", TUTOR, "--offline"], { input: MESSAGES.join("\n") + "\n" }),
      serve([TUTOR, "--offline", "--port", "0", "--host", "0.0.0.0", "--store", dbUrl, "--no-playground"], {
        AUTOGRAMS_TOKEN: token,
      }),
    ]);
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    const url = server.url.replace("0.0.0.0", "127.0.0.1");
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${url}/api/threads`)).status).toBe(401);
    // --no-playground: / and the page's files are unknown endpoints (so behind the token too), and
    // the OpenAPI document does not list /.
    expect((await fetch(`${url}/`)).status).toBe(401);
    const page = await fetch(`${url}/`, { headers: auth });
    expect([page.status, await page.json()]).toEqual([
      404,
      { error: { code: "not_found", message: "no such endpoint: GET /" } },
    ]);
    expect((await fetch(`${url}/playground/app.js`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${url}/playground/graph.svg`, { headers: auth })).status).toBe(404);
    expect(Object.keys((await (await fetch(`${url}/openapi.json`, { headers: auth })).json()).paths)).not.toContain(
      "/",
    );

    // Another server of the same agent on the same SQLite file, in this process.
    const store = await openStore(dbUrl);
    const { graph } = compile(readFileSync(TUTOR, "utf8"), { fileName: TUTOR });
    const other = await startTestServer(folder(), { store, agent: new Agent(graph!, { model: new OfflineModel() }) });

    const said: string[] = [];
    let last: Response | null = null;
    for (const [i, text] of MESSAGES.entries()) {
      const res = await fetch(`${url}/api/chat`, json(chatBody("same", [userMessage(`m${i}`, text)]), auth));
      if (i === MESSAGES.length - 1) {
        last = res;
        break;
      }
      said.push(...textOf(await uiMessageOf(await uiChunks(res.body!))));
    }
    expect(chat.code).toBe(0);
    // The last reply: read two frames, and the client goes away.
    const reader = last!.body!.getReader();
    let head = "";
    while ((head.match(/\n\n/g) ?? []).length < 2) head += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const firstTwo = head.split("\n\n").slice(0, 2).join("\n\n") + "\n\n";
    try {
      // While the serve process still writes the reply (word by word), the other server follows
      // the run from the file (polling).
      const live = await fetch(`${other.url}/api/chat/same/stream`);
      expect(live.status).toBe(200);
      const followed = await live.text();
      expect(followed.startsWith(firstTwo)).toBe(true);
      expect(followed).toMatch(/data: \[DONE\]\n\n$/);
      // The run goes on and is stored; then the process is killed outright.
      while ((await store.latestRun("same"))?.status !== "finished") await new Promise((r) => setTimeout(r, 20));
      server.child.kill("SIGKILL");
      await server.exit;
      // The other server gives the rest after the frames the first client saw, as the file holds it.
      const runId = (await store.latestRun("same"))!.id;
      const rest = await fetch(`${other.url}/api/chat/same/stream`, { headers: { "last-event-id": `${runId}:2` } });
      expect(rest.status).toBe(200);
      const restText = await rest.text();
      expect((await sseFrames(new Response(restText)))[0]!.id).toBe(`${runId}:3`);
      expect(firstTwo + restText).toBe(followed);
      const whole = await uiMessageOf(await uiChunks(new Response(firstTwo + restText).body!));
      said.push(...textOf(whole));
    } finally {
      await other.close();
      await store.close();
    }
    expect(said).toEqual(replies(chat.stdout));
  }, 120_000);

  it("refuses to listen off loopback without a token, or with one no client can send; reads --token-file; stops cleanly on SIGTERM", async () => {
    // Refused before anything listens: in this process (a process of its own costs a second of CPU).
    const open = await autogramsInProcess(["serve", TUTOR, "--offline", "--host", "0.0.0.0", "--port", "0"], {
      cwd: folder(),
    });
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/^autograms serve: --host 0\.0\.0\.0 lets other machines in: give --token/);
    const spaced = await autogramsInProcess(["serve", TUTOR, "--offline", "--port", "0", "--token", "two words"], {
      cwd: folder(),
    });
    expect([spaced.code, spaced.stderr]).toEqual([
      2,
      expect.stringMatching(/^autograms serve: --token: the token must be visible ASCII characters \(no spaces/),
    ]);
    const star = await autogramsInProcess(["serve", TUTOR, "--offline", "--port", "0", "--cors", "*"], {
      cwd: folder(),
    });
    expect([star.code, star.stderr]).toEqual([
      2,
      expect.stringMatching(/^autograms serve: --cors '\*' lets any web page call the API: give a token too/),
    ]);
    writeFileSync(join(folder(), "token.txt"), "from-a-file\n");
    const filed = await serve([
      TUTOR,
      "--offline",
      "--port",
      "0",
      "--token-file",
      join(folder(), "token.txt"),
      "--store",
      `sqlite:${join(folder(), "filed.db")}`,
    ]);
    expect((await fetch(`${filed.url}/api/agent`)).status).toBe(401);
    expect((await fetch(`${filed.url}/api/agent`, { headers: { authorization: "Bearer from-a-file" } })).status).toBe(
      200,
    );
    filed.child.kill("SIGTERM");
    expect(await filed.exit).toBe(0);
    const server = await serve([TUTOR, "--offline", "--port", "0", "--store", `sqlite:${join(folder(), "other.db")}`]);
    expect((await (await fetch(`${server.url}/api/agent`)).json()).name).toBe("FractionTutor");
    // Without --no-playground, / is the playground's page, and the OpenAPI document lists it.
    expect((await fetch(`${server.url}/`)).headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(Object.keys((await (await fetch(`${server.url}/openapi.json`)).json()).paths)).toContain("/");
    // The playground's picture is the compiler's, its nodes opening their lines in VS Code.
    expect(await (await fetch(`${server.url}/playground/graph.svg`)).text()).toMatch(
      /<g class="item node[^"]*" data-id="\w+" data-node="pose"[^>]*>.*href="vscode:\/\/file\/[^"]*\/samples\/tutor\/agent\.ts:44:5"/,
    );
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    expect(server.stderr()).toContain("(stopping)");
  }, 120_000);

  it("stops, as on SIGTERM, when the launcher that started it (npx) is killed without passing the signal on", async () => {
    // A launcher that starts the server and prints its pid, as npx runs the command.
    const launcher = spawn(
      process.execPath,
      [
        "-e",
        `
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, ${JSON.stringify([bin, "serve", TUTOR, "--offline", "--port", "0", "--store", `sqlite:${join(folder(), "launched.db")}`])}, { stdio: ["ignore", "inherit", "inherit"] });
      console.log("pid " + child.pid);
      setInterval(() => {}, 1000);
    `,
      ],
      { cwd: folder() },
    );
    children.push(launcher);
    let out = "";
    const pid = await new Promise<number>((resolve) =>
      launcher.stdout!.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        const m = /pid (\d+)/.exec(out);
        if (m && !launched.includes(Number(m[1]))) launched.push(Number(m[1]));
        if (m && /listening on/.test(out)) resolve(Number(m[1]));
      }),
    );
    let printed = "";
    launcher.stderr!.setEncoding("utf8").on("data", (c: string) => (printed += c));
    expect(isAlive(pid)).toBe(true);
    launcher.kill("SIGKILL");
    // It notices within half a second and stops as on SIGTERM (up to a second for streams, then
    // the store and the workers); a loaded machine (the slow tier's files run side by side) may
    // take several times that. What it printed tells how far it got.
    await processGone(pid, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; it printed: ${printed || "(nothing)"}`);
    });
  }, 60_000);

  it("stops too when the launcher is killed before the server listens", async () => {
    // Killed once the server opens its store (after its agent is compiled, before it listens):
    // the server must have taken its parent's pid before, not after listening, when it would be
    // the pid of the process that adopts orphans.
    const db = join(folder(), "early.db");
    const launcher = spawn(
      process.execPath,
      [
        "-e",
        `
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, ${JSON.stringify([bin, "serve", TUTOR, "--offline", "--port", "0", "--store", `sqlite:${db}`])}, { stdio: ["ignore", "inherit", "inherit"] });
      console.log("pid " + child.pid);
      setInterval(() => {}, 1000);
    `,
      ],
      { cwd: folder() },
    );
    children.push(launcher);
    let out = "";
    let printed = "";
    launcher.stderr!.setEncoding("utf8").on("data", (c: string) => (printed += c));
    const pid = await new Promise<number>((resolve) =>
      launcher.stdout!.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        const m = /pid (\d+)/.exec(out);
        if (m) {
          launched.push(Number(m[1]));
          resolve(Number(m[1]));
        }
      }),
    );
    const deadline = Date.now() + 30_000;
    while (!existsSync(db) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    launcher.kill("SIGKILL");
    await processGone(pid, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; it printed: ${printed || "(nothing)"}`);
    });
    expect(printed).toContain("(the process that started this one is gone)");
  }, 60_000);

  it("hands the playground the agent's source and the modules its actions come from, behind the token", async () => {
    const agentFile = join(root, "samples/custom-action/agent.ts");
    const server = await serve([
      agentFile,
      "--offline",
      "--port",
      "0",
      "--token",
      "s3cret",
      "--store",
      `sqlite:${join(folder(), "sources.db")}`,
    ]);
    expect((await fetch(`${server.url}/playground/sources`)).status).toBe(401);
    const res = await fetch(`${server.url}/playground/sources`, { headers: { authorization: "Bearer s3cret" } });
    const { files } = (await res.json()) as { files: { path: string; text: string; role: string }[] };
    const named = (end: string) => files.find((f) => f.path.endsWith(end));
    expect(files.map((f) => f.role)).toEqual(["agent", ...files.slice(1).map(() => "module")]);
    expect(named("samples/custom-action/agent.ts")?.text).toBe(readFileSync(agentFile, "utf8"));
    for (const module of ["actions.ts", "library.ts"]) {
      expect(named(`samples/custom-action/${module}`)?.text).toBe(
        readFileSync(join(root, "samples/custom-action", module), "utf8"),
      );
    }
    // Installed packages (the runtime the actions import) are not the agent's own code.
    expect(files.filter((f) => f.path.includes("node_modules"))).toEqual([]);
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
  }, 120_000);
});
