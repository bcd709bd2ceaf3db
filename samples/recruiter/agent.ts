// A recruiter screening a candidate, after the original's recruiter example. It branches on the
// candidate's answers with multiple-choice transitions (three ways at a time), keeps facts in
// variables, and writes a note for the hiring manager at the end.
import { Autogram, exec_node, chat, chatExact, thought, thoughtExact, setPrompt, setUserPrompt, func } from "@autograms/runtime";

export default class Recruiter extends Autogram {
  company = "Acme Robotics";
  role = "backend engineer";
  // Filled in as the interview goes.
  outcome = "undecided";
  note = "";

  main() {
    setPrompt(`You are Daisy, a friendly recruiter at ${this.company}, screening a candidate for a ${this.role} position. Keep every reply to two or three sentences.`);
    setUserPrompt(`You are a software engineer talking to a recruiter about a ${this.role} job.`);
    // The original set its variables with thought_exact nodes; here the node's output goes to a
    // const, and text refers to it as $salary_range (the original's syntax) or ${salary_range}.
    const salary_range = thoughtExact("150k-180k");
    exec_node({
      action: "chat",
      name: "greet",
      instruction: "Introduce yourself and ask whether the candidate is ready to start the interview.",
      transitions: ["next", "answer_question", "stop_early"],
      question_prompt: "You are reading a job interview between a recruiter and a candidate.\n",
      transition_question: "How did the candidate answer?",
      transition_choices: ["they are ready to start", "they have a question first", "they do not want to do the interview"],
      user_instruction_transitions: ["say you are ready", "ask what the company builds", "say you are no longer interested"],
    });
    exec_node({
      action: "chat",
      name: "ask_background",
      instruction: `Ask the candidate about their experience as a ${this.role}.`,
      transitions: ["next", "ask_background"],
      transition_question: "Has the candidate described their experience?",
      transition_choices: ["yes", "no"],
      user_instruction_transitions: ["describe five years of backend work in Go and Postgres", "answer vaguely"],
    });
    const background = this.summarizeBackground();
    exec_node({
      action: "chat",
      name: "ask_salary",
      instruction: "Thank the candidate, then ask about their salary expectations.",
      transitions: ["in_range", "below_range", "above_range"],
      question_prompt: "You are reading a job interview between a recruiter and a candidate.\n",
      transition_question: "The range for this role is $salary_range. The candidate's expectation is:",
      transition_choices: ["inside the range", "below the range", "above the range"],
      user_instruction_transitions: ["ask for 160k", "ask for 120k", "ask for 220k"],
    });
    // Each answer records the outcome in a variable; the branches meet again at "write_note".
    this.outcome = thoughtExact("expects a salary inside the range", { name: "in_range", transitions: ["write_note"] });
    this.outcome = thoughtExact("expects a salary below the range", { name: "below_range", transitions: ["write_note"] });
    this.outcome = thoughtExact("expects a salary above the range", { name: "above_range" });
    chat(`Tell the candidate the range is ${salary_range} and ask whether they have some flexibility.`, {
      name: "negotiate",
      transitions: ["write_note", "next"],
      transition_question: "Is the candidate flexible on salary?",
      transition_choices: ["no", "yes"],
      user_instruction_transitions: ["say you will not go below 200k", "say you could accept the top of the range"],
    });
    this.outcome = thoughtExact("expects more than the range, but is flexible", { name: "flexible" });
    // A transition node is a label: a name to jump to.
    exec_node({ action: "transition", name: "write_note" });
    this.note = this.noteForManager(background);
    chat(`Tell the candidate the next step is a technical interview at ${this.company}, and thank them for their time.`, { name: "wrap_up", transitions: ["quit"] });
    // Reached from "greet" only.
    chat("Answer the candidate's question about the company briefly, then ask again whether they are ready.", { name: "answer_question", transitions: ["greet"] });
    chatExact("No problem at all. Thanks for your time, and good luck!", { name: "stop_early", transitions: ["quit"] });
  }

  // A function sees the conversation so far, so the thought can summarize it; its own turns are dropped.
  @func summarizeBackground(): string {
    return thought("Summarize the candidate's experience in one sentence.");
  }

  @func noteForManager(background: string): string {
    return thought(`Write a three-line note to the hiring manager about this candidate for the ${this.role} role. Experience: ${background}. Salary: ${this.outcome}.`);
  }
}
