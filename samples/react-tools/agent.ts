// A ReAct agent: the model reasons in text (Thought / Action / Action Input / Observation) and the
// agent runs the tool each Action names, until the model writes a Final Answer or the step limit is
// reached. Whatever the model gets wrong (no action, an unknown tool, arguments that are not a JSON
// object, a tool that fails) becomes the Observation, so the model can correct itself.
import {
  Autogram, buildReactPrompt, chatExact, parseLatestPluginCall, setPrompt, thought, tryTool, type ToolOutcome,
} from "@autograms/runtime";
import { calculator, convert, lookup, parseActionInput, reactPlugins } from "./tools.js";

export default class PlanetReAct extends Autogram {
  /** Model generations allowed for one question. */
  maxSteps = 6;
  /** Each past question with the agent's reasoning, so follow-up questions have their context. */
  history: [string, string][] = [];

  main() {
    chatExact("Ask me anything about the planets of the solar system.", { name: "greet" });
    while (true) {
      const question = this._last_user_reply;
      const solved = this.solve(question, this.history, this.maxSteps);
      this.history.push([question, solved.transcript]);
      chatExact(`${solved.answer}`, { name: "answer" });
    }
  }

  /**
   * The ReAct loop. The prompt is the reference layout (`buildReactPrompt`) ending where the
   * assistant writes; each generation continues the transcript, and each tool call adds its
   * Observation before the model goes on.
   */
  solve(question: string, history: [string, string][], maxSteps: number): { answer: string; transcript: string } {
    setPrompt("Continue the transcript below as the assistant, keeping to its format.");
    const prompt = buildReactPrompt([...history, [question, ""]], reactPlugins());
    let transcript = "";
    for (let step = 0; step < maxSteps; step++) {
      // The whole text is the model's input: no instruction around it, no earlier turns.
      const output = thought(`${prompt}${transcript}`, { name: "think", instruction_template: "<instruction>", reply_start: "", conv_scope: "react" });
      const action = parseLatestPluginCall(output);
      // Answers come trimmed: the space the model wrote after "Thought:" goes back.
      const space = transcript === "" ? "" : " ";
      if (action.name !== "") {
        const observation = this.observe(action.name, action.args);
        transcript = `${transcript}${space}${action.text}\nObservation: ${observation}\nThought:`;
      } else if (output.includes("Final Answer:")) {
        transcript = `${transcript}${space}${output}`;
        return { answer: output.slice(output.lastIndexOf("Final Answer:") + "Final Answer:".length).trim(), transcript };
      } else {
        transcript = `${transcript}${space}${output}\nObservation: Error: write an Action with an Action Input, or a Final Answer.\nThought:`;
      }
    }
    return { answer: `I could not work that out in ${maxSteps} steps.`, transcript };
  }

  /** Runs the named tool; what goes wrong is the observation, never a failed turn. */
  observe(name: string, input: string): string {
    const args = tryTool(parseActionInput, input);
    if (!args.ok) {
      return `Error: ${args.error}`;
    }
    let outcome: ToolOutcome<unknown> | null = null;
    if (name === "calculator") {
      outcome = tryTool(calculator, args.value);
    } else if (name === "lookup") {
      outcome = tryTool(lookup, args.value);
    } else if (name === "convert") {
      outcome = tryTool(convert, args.value);
    } else {
      return `Error: there is no tool named '${name}'; use one of calculator, lookup, convert.`;
    }
    if (!outcome.ok) {
      return `Error: ${outcome.error}`;
    }
    return typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
  }
}
