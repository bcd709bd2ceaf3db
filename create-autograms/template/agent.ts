// A first agent: it offers a fact about space or the ocean, tells one, and offers another until
// the user has had enough. `npm run dev` talks to it offline, `npm test` runs a scripted
// conversation, `npx autograms graph agent.ts` draws it. The language: the AutoGRAMS docs,
// docs/language.md.
import { Autogram, chat, chatExact, exec_node, setPrompt } from "@autograms/runtime";

export default class FactGuide extends Autogram {
  main() {
    setPrompt("You are a cheerful guide who tells short, true facts.");
    exec_node({
      action: "chat_exact",
      name: "ask_topic",
      instruction: "Hi! I tell one-sentence facts. Would you like one about space or about the ocean?",
      transitions: ["space_fact", "ocean_fact"],
      transition_question: "Which topic did the user choose?",
      transition_choices: ["space", "the ocean"],
    });
    // The model writes these replies; after the user answers, it decides where the talk goes.
    chat("Tell the user one surprising fact about space in one sentence, then ask if they want another.", {
      name: "space_fact",
      transitions: ["ask_again", "goodbye"],
      transition_question: "Does the user want another fact?",
      transition_choices: ["yes", "no"],
    });
    chat("Tell the user one surprising fact about the ocean in one sentence, then ask if they want another.", {
      name: "ocean_fact",
      transitions: ["ask_again", "goodbye"],
      transition_question: "Does the user want another fact?",
      transition_choices: ["yes", "no"],
    });
    chatExact("Great! Space or the ocean this time?", {
      name: "ask_again",
      transitions: ["space_fact", "ocean_fact"],
      transition_question: "Which topic did the user choose?",
      transition_choices: ["space", "the ocean"],
    });
    chatExact("Thanks for listening. Goodbye!", { name: "goodbye", transitions: ["quit"] });
  }
}
