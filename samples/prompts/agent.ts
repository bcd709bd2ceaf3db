// A travel planner that builds its prompt as the conversation goes: set_prompt and append_prompt
// shape what the model is told; set_user_prompt and append_user_prompt (with the
// user_instruction_transitions and interjection fields) describe a simulated traveller, so
// `autograms simulate samples/prompts/agent.ts` can hold whole conversations with it.
import { Autogram, exec_node, chat, chatExact, thought, setPrompt, appendPrompt, setUserPrompt, appendUserPrompt, localFunction } from "@autograms/runtime";

export default class TravelPlanner extends Autogram {
  budget = "1500 euros";

  main() {
    setPrompt("You are Juno, a travel planner at a small agency.");
    appendPrompt("Keep every reply under three sentences, and ask one question at a time.");
    setUserPrompt("You are planning a two-week holiday in August.");
    appendUserPrompt(`Your budget is ${this.budget}. You answer the planner's questions in a sentence or two.`);
    exec_node({
      action: "chat",
      name: "ask_style",
      instruction: "Greet the user and ask what kind of trip they would like: a beach holiday, a city break or a hiking trip.",
      transitions: ["beach", "city", "hiking"],
      transition_question: "What kind of trip does the user want?",
      transition_choices: ["a beach holiday", "a city break", "a hiking trip"],
      user_instruction_transitions: ["say you want a beach holiday", "say you want to visit a city", "say you want to go hiking in the mountains"],
      transition_probs: [0.4, 0.4, 0.2],
    });
    // What the planner knows grows with the conversation: each branch appends to the prompt.
    appendPrompt("The user wants a beach holiday: suggest quiet coastal towns.", { name: "beach", transitions: ["suggest"] });
    appendPrompt("The user wants a city break: suggest cities with good museums and food.", { name: "city", transitions: ["suggest"] });
    appendPrompt("The user wants a hiking trip: suggest mountain regions with marked trails.", { name: "hiking" });
    chat(`Suggest two destinations that fit a budget of ${this.budget}, and ask which one the user prefers.`, {
      name: "suggest",
      transitions: ["next", "suggest"],
      transition_question: "Has the user picked one of the destinations?",
      transition_choices: ["yes", "no"],
      user_instruction_transitions: ["pick the first destination", "ask for other ideas"],
      transition_probs: [0.7, 0.3],
    });
    const destination = thought("Name the destination the user picked, and nothing else.");
    appendPrompt(`The user is going to ${destination}.`);
    const packing = this.packingList(destination);
    chat(`Tell the user you have made a packing list, and read it out: ${packing}`, {
      name: "packing",
      transitions: ["next", "packing_change"],
      transition_question: "Is the user happy with the packing list?",
      transition_choices: ["yes", "no"],
      user_instruction_transitions: ["say thanks, that looks good", "ask to add a swimsuit"],
    });
    chatExact("Wonderful. I'll send everything to your email. Have a great trip!", { name: "goodbye", transitions: ["quit"] });
    chat("Add what the user asked for to the packing list, and read out the new list.", { name: "packing_change", transitions: ["goodbye"] });
    // The simulated traveller may wander off at any time: this interjection ends the conversation.
    exec_node({
      action: "chat_exact",
      name: "leave",
      instruction: "No problem, come back any time!",
      condition_interjection: "The user wants to stop planning.",
      user_interjection: "<end>",
      probability_interjection: 0.05,
      transitions: ["quit"],
    });
  }

  // A local function starts with a fresh prompt: setting one here leaves the planner's untouched.
  @localFunction packingList(destination: string): string {
    setPrompt("You are a careful packer who writes short lists.");
    appendPrompt("Write at most six items, separated by commas.");
    return thought(`Write a packing list for two weeks in ${destination} in August.`);
  }
}
