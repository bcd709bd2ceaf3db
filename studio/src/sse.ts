/** Server-sent events from a fetch response (EventSource cannot POST). */

/**
 * Calls `onEvent` with each event's id and parsed data until it returns true (then the stream is
 * cancelled) or the stream ends. The data is a numbered event (`{ seq, event }`) or the event itself.
 */
export async function readEvents<E>(res: Response, onEvent: (id: string | null, event: E) => boolean): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return;
    buf = (buf + decoder.decode(chunk.value, { stream: true })).replace(/\r\n?/g, "\n");
    for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) id = line.slice(3).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (!data.length) continue;
      let parsed = JSON.parse(data.join("\n")) as { seq?: number; event?: E } | E;
      if (
        typeof parsed === "object" &&
        parsed !== null &&
        "event" in parsed &&
        "seq" in parsed &&
        parsed.seq !== undefined
      ) {
        id ??= String(parsed.seq);
        parsed = parsed.event as E;
      }
      if (onEvent(id, parsed as E)) {
        reader.cancel().catch(() => {});
        return;
      }
    }
  }
}
