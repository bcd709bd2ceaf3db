// `chat`, `serve` and `run` export OpenTelemetry traces when the standard variables ask for it
// (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise nothing of the
// SDK is loaded. The runtime makes its spans through @opentelemetry/api either way.
import { configureSpanQueue, countDroppedSpans, drainSpanQueue, droppedSpans } from "@autograms/runtime/telemetry";
import { CliError } from "./cli-error.js";
import { loadOptional } from "./optional-package.js";
import { spanCounts } from "./span-counts.js";

const env = (name: string) => (process.env[name] === "" ? undefined : process.env[name]);

// The exporters of each protocol, and the versions that run on Node 20.
const EXPORTERS: Record<string, string> = {
  "http/protobuf": "@opentelemetry/exporter-trace-otlp-proto",
  "http/json": "@opentelemetry/exporter-trace-otlp-http",
};
const SDK = "@opentelemetry/sdk-trace-node";
const RESOURCES = "@opentelemetry/resources";
const INSTALL = { [SDK]: `${SDK}@2`, [RESOURCES]: `${RESOURCES}@2`, exporter: (name: string) => `${name}@0.223` };

export interface Tracing {
  /**
   * Sends the spans not sent yet, then stops; waits no longer than the shutdown timeout, and says
   * in one line how many spans were not sent and why.
   */
  shutdown(): Promise<void>;
}

/** How long stopping waits for the last spans to be sent, in milliseconds. */
const SHUTDOWN_VAR = "AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS";
const DEFAULT_SHUTDOWN_MS = 2000;
/** The SDK's own default size of its queue (OTEL_BSP_MAX_QUEUE_SIZE), which the relay's queue matches. */
const DEFAULT_QUEUE_SIZE = 2048;

function wholeNumber(name: string, fallback: number, least: number): number {
  const text = env(name);
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < least)
    throw new CliError(`${name}=${text}: a whole number of at least ${least} is expected`, 2);
  return Number(text);
}

export async function startTracing(): Promise<Tracing | undefined> {
  const endpointVar = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
    : "OTEL_EXPORTER_OTLP_ENDPOINT";
  if (!env(endpointVar) || env("OTEL_TRACES_EXPORTER") === "none" || env("OTEL_SDK_DISABLED") === "true")
    return undefined;
  const protocolVar = env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  // The specification's default protocol.
  const protocol = env(protocolVar) ?? "http/protobuf";
  const exporterPackage = EXPORTERS[protocol];
  if (!exporterPackage)
    throw new CliError(`${protocolVar}=${protocol}: traces are exported over http/protobuf or http/json`, 2);
  const shutdownMs = wholeNumber(SHUTDOWN_VAR, DEFAULT_SHUTDOWN_MS, 0);
  const maxQueueSize = wholeNumber("OTEL_BSP_MAX_QUEUE_SIZE", DEFAULT_QUEUE_SIZE, 1);
  const why = `${endpointVar} is set`;
  const sdk = (await loadOptional(SDK, INSTALL[SDK], why)) as typeof import("@opentelemetry/sdk-trace-node");
  const resources = (await loadOptional(
    RESOURCES,
    INSTALL[RESOURCES],
    why,
  )) as typeof import("@opentelemetry/resources");
  const { OTLPTraceExporter } = (await loadOptional(
    exporterPackage,
    INSTALL.exporter(exporterPackage),
    why,
  )) as typeof import("@opentelemetry/exporter-trace-otlp-http");
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the service; "autograms" otherwise.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "autograms" }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // The processor's queue is bounded (OTEL_BSP_MAX_QUEUE_SIZE; its batch size, delay and export
  // timeout from OTEL_BSP_*, as the SDK reads them): what does not fit is dropped and counted.
  const counts = spanCounts(countDroppedSpans);
  let ended = 0;
  // The processor passes its options on whole; its type does not list the meter provider yet.
  const processorOptions = { maxQueueSize, selfObsMeterProvider: counts.meterProvider };
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [
      { onStart() {}, onEnd: () => void ended++, forceFlush: async () => {}, shutdown: async () => {} },
      new sdk.BatchSpanProcessor(new OTLPTraceExporter(), processorOptions),
    ],
  });
  provider.register();
  // The worker threads' spans wait in the relay's queue, bounded as the processor's, while the
  // processor's has no room: the spans it would drop are not made first.
  configureSpanQueue({ maxQueueSize, room: () => maxQueueSize - counts.queued() });
  return {
    async shutdown() {
      drainSpanQueue();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`not taken within ${shutdownMs} ms (${SHUTDOWN_VAR})`), shutdownMs);
      });
      const why = await Promise.race([
        provider.shutdown().then(
          () => "",
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        ),
        timedOut,
      ]);
      clearTimeout(timer);
      // Spans the relay dropped never reached the processor.
      const unsent = ended - counts.sent + droppedSpans() - counts.dropped;
      if (unsent > 0) {
        const reason = why || (counts.failed > 0 ? "their export failed" : "dropped while the exporter was behind");
        process.stderr.write(
          `(traces: ${unsent} span${unsent === 1 ? "" : "s"} not sent to ${endpointVar}: ${reason})\n`,
        );
      }
      // An export still under way (or its retries' timers) would hold the process past the
      // bound: the command has done all it had to, so cli/bin/autograms.js ends the process
      // with its exit code (a test that runs a command in its own process is not ended).
      if (why) (globalThis as Record<symbol, unknown>)[Symbol.for("autograms.exit-when-done")] = true;
    },
  };
}
