// `chat`, `serve` and `run` export OpenTelemetry traces when the standard variables ask for it
// (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise nothing of the
// SDK is loaded. The runtime makes its spans through @opentelemetry/api either way.
import { CliError } from "./cli-error.js";
import { loadOptional } from "./optional-package.js";

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
  /** Sends the spans not sent yet, then stops. */
  shutdown(): Promise<void>;
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
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
