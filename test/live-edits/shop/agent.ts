import { Autogram, chatExact, exec_node } from "@autograms/runtime";

export default class Shop extends Autogram {
  note = "browsing";

  main() {
    chatExact("Welcome!");
    this.note = "looking";
    exec_node({
      action: "chat_exact", name: "checkout", instruction: "Ready to check out?",
      transitions: ["next", "browse"], transition_question: "Is the user ready?", transition_choices: ["yes", "no"],
    });
    chatExact("Thanks!");
    this.pay(this.note);
    chatExact("Bye.", { transitions: ["quit"] });
    exec_node({ action: "chat_exact", name: "browse", instruction: "What else?", transitions: ["checkout"] });
  }

  pay(method: string) {
    if (method !== "") {
      chatExact("Card or cash?");
    }
    chatExact("Paid.");
  }
}
