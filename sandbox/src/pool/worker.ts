import type { JsonValue } from "@autograms/graph";
import { SandboxError } from "../errors.js";
import { evaluateAsync } from "../evaluate.js";
import type { CallResult, FromChild, ToChild } from "./protocol.js";

/**
 * A sandbox pool's child process: evaluates what the parent sends, one request at a time, and
 * forwards tool calls to the parent (tools never run here).
 */

const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCall = 0;

function send(message: FromChild): void {
  process.send!(message);
}

function callParent(id: number, name: string, args: JsonValue[]): Promise<unknown> {
  const call = nextCall++;
  return new Promise((resolve, reject) => {
    pending.set(call, { resolve, reject });
    send({ type: "call", id, call, name, args });
  });
}

function settle(message: CallResult): void {
  const waiting = pending.get(message.call);
  if (waiting === undefined) return;
  pending.delete(message.call);
  if (message.ok) waiting.resolve(message.value);
  else waiting.reject(new Error(message.message));
}

process.on("message", (message: ToChild) => {
  if (message.type === "result") {
    settle(message);
    return;
  }
  const { id, code, variables, limits } = message;
  const functions = Object.fromEntries(
    message.functions.map((name) => [name, (...args: JsonValue[]) => callParent(id, name, args)]),
  );
  evaluateAsync(code, variables, { ...limits, functions }).then(
    (result) =>
      send({
        type: "done",
        id,
        value: result.value,
        variables: result.variables,
        logs: result.logs,
        time: result.time,
      }),
    (error: unknown) => {
      const e = SandboxError.is(error) ? error : new SandboxError("type", "evaluation failed");
      send({
        type: "failed",
        id,
        error: { kind: e.kind, message: e.message, limit: e.limit, line: e.line, column: e.column, logs: e.logs },
      });
    },
  );
});

// The parent's watchdog starts counting once the process is up, not while Node is starting.
send({ type: "ready", id: -1 });
