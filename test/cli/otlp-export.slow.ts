// `autograms chat` exporting its traces to an OTLP/HTTP receiver, as it does to a collector when
// OTEL_EXPORTER_OTLP_ENDPOINT is set: the real SDK and exporters, over HTTP, in both encodings.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autograms, cliTestFolder, replies } from "./support/run-cli.js";
import { attrs, startReceiver, type JsonSpan, type Receiver } from "./support/otlp-receiver.js";

cliTestFolder("autograms-otlp-");
const agent = "test/cli/fixtures/greeter/agent.ts";

let receiver: Receiver;
let exports: Receiver["exports"];
let endpoint: string;

beforeEach(async () => {
  receiver = await startReceiver();
  ({ exports, endpoint } = receiver);
});
afterEach(() => receiver.close());

describe("OTLP export", () => {
  it("sends the spans of each turn as JSON when the endpoint is set (http/json)", async () => {
    const r = await autograms(["chat", agent, "--offline"], {
      input: "hi\n",
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "greeter-test",
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)).toHaveLength(2);
    expect(exports.length).toBeGreaterThan(0);
    expect(exports.every((e) => e.path === "/v1/traces" && e.contentType === "application/json")).toBe(true);
    const batches = exports.map(
      (e) =>
        JSON.parse(e.body.toString("utf8")) as {
          resourceSpans: { resource: { attributes: JsonSpan["attributes"] }; scopeSpans: { spans: JsonSpan[] }[] }[];
        },
    );
    const resource = Object.fromEntries(
      batches[0]!.resourceSpans[0]!.resource.attributes.map((a) => [a.key, a.value.stringValue]),
    );
    expect(resource["service.name"]).toBe("greeter-test");
    const spans = batches.flatMap((b) => b.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
    const turns = spans.filter((s) => s.name === "invoke_agent Greeter");
    expect(turns).toHaveLength(2);
    expect(attrs(turns[0]!)).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "Greeter",
      "code.file.path": agent,
    });
    const chats = spans.filter((s) => s.name === "chat offline");
    expect(chats).toHaveLength(2);
    expect(attrs(chats[0]!)).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "autograms",
      "gen_ai.request.model": "offline",
      "autograms.node.name": "answer",
    });
    const node = spans.find((s) => s.spanId === chats[0]!.parentSpanId)!;
    expect(node.name).toBe("node answer");
    expect(turns.map((t) => t.spanId)).toContain(node.parentSpanId);
  });

  it("sends protobuf by default (http/protobuf)", async () => {
    const r = await autograms(["chat", agent, "--offline"], {
      input: "",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(exports.map((e) => [e.path, e.contentType])).toContainEqual(["/v1/traces", "application/x-protobuf"]);
    // Protobuf keeps strings as they are: the span names are in the bytes.
    const body = Buffer.concat(exports.map((e) => e.body)).toString("latin1");
    expect(body).toContain("invoke_agent Greeter");
    expect(body).toContain("gen_ai.agent.name");
  });

  it("sends nothing, and loads no SDK, without an endpoint; refuses a protocol it cannot send", async () => {
    const r = await autograms(["chat", agent, "--offline"], { input: "" });
    expect(r.code, r.stderr).toBe(0);
    expect(exports).toEqual([]);
    const grpc = await autograms(["chat", agent, "--offline"], {
      input: "",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
    });
    expect(grpc.code).toBe(2);
    expect(grpc.stderr).toBe(
      "autograms chat: OTEL_EXPORTER_OTLP_PROTOCOL=grpc: traces are exported over http/protobuf or http/json\n",
    );
  });
});
