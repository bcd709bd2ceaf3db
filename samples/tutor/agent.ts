// A fraction tutor: the README's demo. It teaches two short units, asks a problem in each and
// checks the answer. It shows the three kinds of agent function and a for...of loop, and it speaks
// its key lines with chatExact, so the conversation reads well even with the offline model.
import { Autogram, exec_node, chat, chatExact, thought, setPrompt, setUserPrompt, func, localFunction, globalFunction } from "@autograms/runtime";

export default class FractionTutor extends Autogram {
  // Class fields are the global variables, with their initial values.
  units = [
    { topic: "adding fractions", lesson: "To add fractions with the same denominator, add the tops and keep the bottom: 1/5 + 2/5 = 3/5.", problem: "What is 1/4 + 2/4?", answer: "3/4" },
    { topic: "multiplying fractions", lesson: "To multiply fractions, multiply the tops and multiply the bottoms: 2/3 × 1/5 = 2/15.", problem: "What is 1/2 × 3/4?", answer: "3/8" },
  ];
  correct = 0;

  main() {
    setPrompt("You are a patient maths tutor. You teach fractions in short, friendly steps.");
    setUserPrompt("You are a student learning fractions. Answer the tutor's questions briefly; sometimes make a mistake.");
    exec_node({
      action: "chat_exact",
      name: "ask_ready",
      instruction: "Hi! I'm your fractions tutor. We'll do two short units, each with one problem. Ready to start?",
      transitions: ["next", "encourage"],
      transition_question: "Is the user ready to start?",
      transition_choices: ["yes", "no"],
      user_instruction_transitions: ["say you are ready", "say you are nervous about fractions"],
    });
    for (const unit of this.units) {
      this.doUnit(unit.topic, unit.lesson, unit.problem, unit.answer);
    }
    chatExact(`That's both units done: you answered ${this.correct} of ${this.units.length} problems right. Well done, and see you next time!`, { name: "goodbye", transitions: ["quit"] });
    // Reached only from ask_ready's "no": a word of encouragement, then back to the question.
    chatExact("No problem, fractions are just pieces of a whole, and we'll go slowly. Shall we begin?", { name: "encourage", transitions: ["ask_ready"] });
  }

  // A global function shares the caller's variables and conversation: its writes to this.correct stay.
  @globalFunction doUnit(topic: string, lesson: string, problem: string, answer: string) {
    chatExact(`Unit: ${topic}. ${lesson} Any questions before we try one?`, {
      name: "explain",
      transitions: ["pose", "answer_question"],
      transition_question: "Does the user have a question?",
      transition_choices: ["no", "yes"],
      user_instruction_transitions: ["say you have no questions", "ask why that rule works"],
    });
    chat("Answer the user's question about the rule in one or two sentences.", { name: "answer_question", transitions: ["pose"] });
    chatExact(`Here's your problem: ${problem}`, { name: "pose" });
    const verdict = this.checkAnswer(this._last_user_reply, answer);
    if (verdict === "correct") {
      this.correct += 1;
      chatExact(`Correct, ${answer} is right! ${this.encouragement()}`, { name: "praise" });
    } else {
      chatExact(`Not quite: the answer is ${answer}. ${this.encouragement()}`, { name: "correction" });
    }
  }

  // A local function sees only its arguments and starts a fresh conversation: a clean judge.
  @localFunction checkAnswer(reply: string, answer: string): string {
    if (reply.replaceAll(" ", "").includes(answer)) {
      return "correct";
    }
    return thought(`A student was asked a fraction problem whose answer is ${answer}. They replied: ${reply}. Is that the same value? Reply "wrong" or "correct".`);
  }

  // A function reads the caller's variables (here the global this.correct); its own writes stay local.
  @func encouragement(): string {
    if (this.correct === 0) {
      return "Fractions take practice, and you're getting there.";
    }
    return `That's ${this.correct} right so far.`;
  }
}
