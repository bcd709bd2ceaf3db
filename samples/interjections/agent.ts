// A museum guide that walks through three rooms. The tour moves on with `room.n` (room.1, then
// room.2, ...: the first room not yet visited), so after any detour the guide picks up where it
// left off. Interjection nodes handle what a visitor may say at any point, whatever the guide asked.
import { Autogram, exec_node, chat, chatExact, setPrompt, setUserPrompt } from "@autograms/runtime";

export default class MuseumGuide extends Autogram {
  main() {
    setPrompt("You are Ada, a guide at a small art museum. Keep each reply to two or three sentences.");
    setUserPrompt("You are a visitor on a guided tour of an art museum.");
    chatExact("Welcome to the museum! I'm Ada, your guide. Our tour has three rooms. Ready for the first one?", {
      name: "welcome",
      transitions: ["room.n"],
      user_instruction_transitions: ["say you are ready"],
    });
    // The rooms, in visiting order. Each one moves on to the next room not yet visited; the last
    // (room.4) is where `room.n` stays once every room has been seen.
    chat("Describe the first room: Dutch landscapes of the 1600s, in particular a windmill by Ruisdael.", { name: "room.1", transitions: ["room.n"] });
    chat("Describe the second room: French impressionists, in particular water lilies by Monet.", { name: "room.2", transitions: ["room.n"] });
    chat("Describe the third room: modern sculpture, in particular a bronze by Barbara Hepworth.", { name: "room.3", transitions: ["room.n"] });
    chatExact("That was the last room. Thank you for visiting, and enjoy the rest of your day!", { name: "room.4", transitions: ["quit"] });

    // Interjections: after any chat node the model is asked whether one of these conditions holds.
    exec_node({
      action: "chat",
      name: "question",
      instruction: "Answer the visitor's question about the art in a sentence or two, then offer to continue the tour.",
      condition_interjection: "The visitor asks a question about a painting or an artist.",
      user_interjection: "ask who painted the picture",
      transitions: ["room.n"],
    });
    exec_node({
      action: "chat_exact",
      name: "break",
      instruction: "Of course. The café is on the ground floor, next to the shop. Tell me when you're ready, and we'll go on to the next room.",
      condition_interjection: "The visitor wants a break, a drink or the restroom.",
      user_interjection: "say you would like a coffee first",
      transitions: ["room.n"],
    });
    exec_node({
      action: "chat_exact",
      name: "leave",
      instruction: "No problem, thanks for coming! The exit is straight ahead.",
      condition_interjection: "The visitor wants to end the tour.",
      user_interjection: "<end>",
      probability_interjection: 0.05,
      transitions: ["quit"],
    });
  }
}
