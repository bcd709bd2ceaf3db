/** An agent that sets its prompt, then answers through the model: editing `prompt` leaves every thread resumable. */
export const promptedAgent = (prompt: string) => `import { Autogram, chat, setPrompt } from "@autograms/runtime";

export default class Helper extends Autogram {
  main() {
    setPrompt("${prompt}");
    while (true) {
      chat("Answer the user.", { name: "talk" });
    }
  }
}
`;
