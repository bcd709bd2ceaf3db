// A small OTLP/HTTP receiver: what the exporters send it, as a collector would receive it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Export {
  path: string;
  contentType: string;
  body: Buffer;
}

type JsonValue = { stringValue?: string; intValue?: string | number; arrayValue?: unknown };
export interface JsonSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: JsonValue }[];
}

export interface Receiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** The requests received, in order (`exports.length = 0` forgets them). */
  exports: Export[];
  /** The spans of the http/json requests received. */
  jsonSpans(): JsonSpan[];
  close(): Promise<void>;
}

export const attrs = (span: JsonSpan) =>
  Object.fromEntries(span.attributes.map((a) => [a.key, a.value.stringValue ?? a.value.intValue]));

export async function startReceiver(): Promise<Receiver> {
  const exports: Export[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      exports.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" });
      res.end(req.headers["content-type"] === "application/json" ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    jsonSpans: () =>
      exports
        .filter((e) => e.contentType === "application/json")
        .flatMap((e) =>
          (
            JSON.parse(e.body.toString("utf8")) as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] }
          ).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
        ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
