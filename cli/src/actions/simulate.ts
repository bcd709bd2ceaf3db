import { join } from "node:path";
import { CliError } from "../agent-loading/cli-error.js";
import { makeFolder, writeText } from "../agent-loading/files.js";
import { sourceName, type LoadedAgent } from "../agent-loading/load-graph.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reportError, reporting } from "../agent-loading/report-error.js";
import { conversationSeed, seededRandom } from "@autograms/runtime";
import { TraceTranscript, writeTranscript, type ConversationRecord } from "../simulation/transcripts.js";
import { NodeVisits, coverageSummary, toLcov } from "../trace/coverage.js";
import { JsonlTraceWriter, fanOut } from "../trace/jsonl-writer.js";

export interface SimulateFlags extends ModelFlags {
  conversations: number;
  out: string;
  maxTurns: number;
  seed?: number;
  trace?: string;
  coverage?: string;
}

export function simulateCommand(file: string, flags: SimulateFlags): Promise<void> {
  return reporting("simulate", (onLoaded) => simulate(file, flags, onLoaded));
}

interface Outcome {
  record: ConversationRecord;
  error?: unknown;
  files: { json: string; markdown: string };
}

async function simulate(file: string, flags: SimulateFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<number> {
  const { agent, loaded } = await openAgent(file, flags, { modelRequired: true, onLoaded });
  const { graph } = loaded;
  const source = sourceName(loaded);
  if (flags.coverage !== undefined && !graph.nodes.some((n) => n.loc)) {
    throw new CliError("--coverage needs a graph compiled from an agent's source: this one has no source locations");
  }

  // Before the conversations, so a folder that cannot be written to stops nothing under way.
  makeFolder(flags.out, "the transcripts' folder ");
  const n = flags.conversations;
  const seed = flags.seed ?? Math.floor(Math.random() * 2 ** 31);
  const visits = new NodeVisits();
  const oneTraceFile = flags.trace?.endsWith(".jsonl") ? new JsonlTraceWriter(flags.trace, source) : null;
  const digits = String(n).length;
  const progress = await progressBar(n);
  const outcomes: Outcome[] = [];
  try {
    for (let i = 1; i <= n; i++) {
      const name = `conversation-${String(i).padStart(digits, "0")}`;
      const ownTraceFile =
        flags.trace !== undefined && !oneTraceFile
          ? new JsonlTraceWriter(join(flags.trace, `${name}.jsonl`), source)
          : null;
      const partial = new TraceTranscript();
      const trace = fanOut(visits.sink, partial.sink, oneTraceFile?.sink({ conversation: i }), ownTraceFile?.sink());
      const record: ConversationRecord = {
        agent: graph.agent,
        source,
        conversation: i,
        of: n,
        seed: conversationSeed(seed, i),
        ended: "error",
        transcript: [],
        memory: null,
      };
      let error: unknown;
      try {
        const result = await agent.simulate({
          random: seededRandom(record.seed),
          maxTurns: flags.maxTurns,
          ...(trace ? { trace } : {}),
        });
        Object.assign(record, { ended: result.ended, transcript: result.transcript, memory: result.memory });
      } catch (err) {
        error = err;
        const location = (err as { location?: unknown }).location;
        record.error = {
          message: err instanceof Error ? err.message : String(err),
          ...(typeof location === "string" ? { location } : {}),
        };
        record.transcript = partial.messages;
      } finally {
        ownTraceFile?.close();
      }
      outcomes.push({ record, error, files: writeTranscript(flags.out, name, record) });
      progress?.increment();
    }
  } finally {
    progress?.stop();
    oneTraceFile?.close();
  }

  for (const o of outcomes.filter((o) => o.error !== undefined)) {
    process.stderr.write(`conversation ${o.record.conversation} failed:\n`);
    reportError("simulate", o.error, loaded);
  }
  process.stdout.write(summary(graph.agent, seed, flags, outcomes));
  if (flags.coverage !== undefined) {
    writeText(flags.coverage, toLcov(graph, visits, source), "the coverage ");
    process.stderr.write(
      `coverage of ${source} by ${n} conversation${n === 1 ? "" : "s"} (lcov: ${flags.coverage}):\n${coverageSummary(graph, visits)}`,
    );
  }
  return outcomes.some((o) => o.error !== undefined) ? 1 : 0;
}

/** A progress bar on a terminal only: piped stderr gets no control characters. */
async function progressBar(total: number): Promise<{ increment(): void; stop(): void } | null> {
  if (!process.stderr.isTTY) return null;
  const { default: progress } = await import("cli-progress");
  const bar = new progress.SingleBar(
    {
      format: "simulating [{bar}] {value}/{total} conversations, {duration}s",
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    progress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

function summary(agentName: string, seed: number, flags: SimulateFlags, outcomes: Outcome[]): string {
  const agentTurns = (o: Outcome) => o.record.transcript.filter((m) => m.role === "agent").length;
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.record.ended, (counts.get(o.record.ended) ?? 0) + 1);
  const average = outcomes.reduce((sum, o) => sum + agentTurns(o), 0) / outcomes.length;
  const width = Math.max(...outcomes.map((o) => o.files.markdown.length));
  const lines = [
    `${agentName}: ${outcomes.length} simulated conversation${outcomes.length === 1 ? "" : "s"}, seed ${seed} (repeat with --seed ${seed}), at most ${flags.maxTurns} turns each`,
    `  ${"#".padStart(3)}  ${"transcript".padEnd(width)}  ${"ended".padEnd(10)}  agent turns`,
    ...outcomes.map(
      (o) =>
        `  ${String(o.record.conversation).padStart(3)}  ${o.files.markdown.padEnd(width)}  ${o.record.ended.padEnd(10)}  ${String(agentTurns(o)).padStart(11)}`,
    ),
    `ended: ${[...counts].map(([k, v]) => `${k} ${v}`).join(", ")}; ${average.toFixed(1)} agent turns on average`,
  ];
  return lines.join("\n") + "\n";
}
