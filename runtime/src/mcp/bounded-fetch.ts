// The fetch a Streamable HTTP connection uses, with its answers bounded: one SSE event or one JSON
// answer at most maxMessageBytes, one call's whole answer (a POST's stream) at most maxCallBytes.
// Without it, a server that sends one endless event or streams forever fills the heap.
import { McpLimitError, type McpLimits, mebibytes } from "./limits.js";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The tool a request calls, read from its body (a JSON-RPC `tools/call`), for the error. */
function toolCalled(body: unknown): string | undefined {
  if (typeof body !== "string" || !body.includes('"tools/call"')) return undefined;
  try {
    const message = JSON.parse(body) as { method?: string; params?: { name?: unknown } };
    return message.method === "tools/call" && typeof message.params?.name === "string"
      ? message.params.name
      : undefined;
  } catch {
    return undefined;
  }
}

const LF = 10;
const CR = 13;

export function boundedFetch(
  limits: Pick<McpLimits, "maxMessageBytes" | "maxCallBytes">,
  onOverflow: (error: McpLimitError) => void,
  base: Fetch = fetch,
): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.ok || !response.body) return response;
    const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const post = (init?.method ?? "GET").toUpperCase() === "POST";
    const tool = toolCalled(init?.body);
    const answering = tool === undefined ? "" : ` answering the call of '${tool}'`;
    let total = 0;
    let message = 0;
    let lineEnded = false;
    const fail = (what: string, option: string, bound: number) => {
      const error = new McpLimitError(`it sent ${what} larger than ${mebibytes(bound)} (${option})${answering}`);
      onOverflow(error);
      return error;
    };
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.length;
        if (post && total > limits.maxCallBytes)
          return controller.error(fail("an answer", "maxCallBytes", limits.maxCallBytes));
        if (!sse) message += chunk.length;
        // An event ends at an empty line; its bytes are counted from the last one. Lines are
        // found with indexOf: a loop over each byte costs half a second per 16 MiB.
        else
          for (let at = 0; at <= chunk.length; ) {
            const lf = chunk.indexOf(LF, at);
            const end = lf < 0 ? chunk.length : lf;
            const length = end - at - (end > at && chunk[end - 1] === CR ? 1 : 0);
            if (length > 0) {
              message += length;
              lineEnded = false;
            }
            if (lf < 0) break;
            if (lineEnded) message = 0;
            lineEnded = true;
            at = lf + 1;
          }
        if (message > limits.maxMessageBytes)
          return controller.error(fail("a message", "maxMessageBytes", limits.maxMessageBytes));
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counted), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
