import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { useEffect, useState } from "react";

const transport = new DefaultChatTransport({
  api: "/api/chat",
  // The server keeps the conversation and reads only the new message: sent alone, a message costs
  // the server the same at any length of the chat (useChat would send the whole chat each time).
  prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
    body: { ...body, id, messages: messages.slice(-1), trigger, messageId },
  }),
  // Resuming asks for the whole reply (from before its first event), also if it ended meanwhile.
  prepareReconnectToStreamRequest: () => ({ headers: { "Last-Event-ID": "0" } }),
});

const messagesOf = async (id: string): Promise<UIMessage[]> => (await fetch(`/api/chat/${id}/messages`)).json();

const textOf = (message: UIMessage) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");

// One chat per address: its id is in the URL's hash, so a reload comes back to the same chat.
function chatId(): string {
  if (!location.hash) history.replaceState(null, "", `#${crypto.randomUUID()}`);
  return location.hash.slice(1);
}

export function App() {
  const [id] = useState(chatId);
  const [saved, setSaved] = useState<UIMessage[]>();
  useEffect(() => void messagesOf(id).then(setSaved), [id]);
  return saved ? <Chat id={id} saved={saved} /> : <p>Loading…</p>;
}

function Chat({ id, saved }: { id: string; saved: UIMessage[] }) {
  const { messages, setMessages, sendMessage, regenerate, stop, status, error } = useChat({
    id,
    messages: saved,
    transport,
    // The page was reloaded while a reply was being written: it goes on here.
    resume: saved.at(-1)?.role === "user",
  });
  const [input, setInput] = useState("");
  const busy = status === "submitted" || status === "streaming";

  // A new chat: the agent speaks first.
  useEffect(() => {
    if (saved.length === 0) void sendMessage();
  }, []);

  // Stopping closes this page's request and stops the reply on the server, which keeps nothing of
  // the exchange: the page shows what the server kept, and the message goes back to the input.
  async function stopReply() {
    await stop();
    await fetch(`/api/chat/${id}/stop`, { method: "POST" });
    const stopped = messages.findLast((m) => m.role === "user");
    setMessages(await messagesOf(id));
    if (stopped) setInput(textOf(stopped));
  }

  return (
    <main>
      {messages.map((message) => (
        <div key={message.id} className={`message ${message.role}`}>
          {textOf(message)}
        </div>
      ))}
      {error && <p className="error">{error.message}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!input.trim()) return;
          void sendMessage({ text: input });
          setInput("");
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Say something" aria-label="Message" />
        {busy ? (
          <button type="button" onClick={stopReply}>Stop</button>
        ) : (
          <>
            <button type="submit">Send</button>
            <button type="button" onClick={() => regenerate()} disabled={messages.at(-1)?.role !== "assistant"}>
              Regenerate
            </button>
          </>
        )}
      </form>
    </main>
  );
}
