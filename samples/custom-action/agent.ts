import { Autogram, chatExact, exec_node, setPrompt } from "@autograms/runtime";
import { confirm, retrieve } from "./actions.js";

/**
 * A library help desk built on two custom actions (actions.ts): `retrieve` answers a question
 * from passages of a small local index put into the prompt, and `confirm` repeats the user's card
 * number back and branches on their yes or no without asking the model.
 */
export default class HelpDesk extends Autogram {
  main() {
    setPrompt("You are the help desk of a public library. Answer briefly and only from the passages you are given.");
    chatExact("Welcome to the library help desk. What would you like to know?", { name: "welcome" });
    exec_node({
      action: retrieve, name: "answer", top: 2,
      instruction: "Answer the user's question from these passages. If they do not cover it, say so.",
    });
    chatExact("I can also renew your loans. What is your library card number?", { name: "ask_card" });
    const card = exec_node({
      action: confirm, name: "check_card", question: "Your card number is",
      transitions: ["next", "ask_card"],
      transition_question: "Has the user confirmed the card number?", transition_choices: ["yes", "no"],
    });
    chatExact(`Done: the loans on card ${card} are renewed for three more weeks. Goodbye!`, { name: "renewed", transitions: ["quit"] });
  }
}
