// The planet guide of samples/react-tools with native tool calls: the chat node offers the tools
// through the model's tool-calling API, and the runtime runs the calls the model makes and gives it
// the results until it answers in text. The tools are the same module, made with defineTool, whose
// descriptions and JSON Schemas go to the model.
import { Autogram, chat, chatExact, setPrompt } from "@autograms/runtime";
import { calculator, convert, lookup } from "../react-tools/tools.js";

export default class PlanetGuide extends Autogram {
  main() {
    setPrompt("You answer questions about the planets of the solar system. Look every fact up and do every calculation with the tools; never guess a number.");
    chatExact("Ask me anything about the planets of the solar system.", { name: "greet" });
    while (true) {
      chat("Answer the user's question.", { name: "answer", tools: [calculator, lookup, convert] });
    }
  }
}
