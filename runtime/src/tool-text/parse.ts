// The latest "Action: / Action Input:" call in a model's ReAct text, as the reference
// implementation (Python) finds it: its str.find / rfind positions and its str.strip whitespace.
import { pyRstrip, pyStrip } from "./python-text.js";
import type { PluginCall } from "./types.js";

/** The marker with a leading newline when the text has that form anywhere, else the bare marker. */
function lastMarker(text: string, bare: string): [index: number, marker: string] {
  const withNewline = `\n${bare}`;
  return text.includes(withNewline) ? [text.lastIndexOf(withNewline), withNewline] : [text.lastIndexOf(bare), bare];
}

/** A text that opens with "\nAction:" is read from its last action, any other from its first. */
function actionMarker(text: string): [index: number, marker: string] {
  return text.startsWith("\nAction:")
    ? [text.lastIndexOf("\nAction:"), "\nAction:"]
    : [text.indexOf("Action:"), "Action:"];
}

export function parseLatestPluginCall(text: string): PluginCall {
  const [i, action] = actionMarker(text);
  const [j, actionInput] = lastMarker(text, "Action Input:");
  const [k, observation] = lastMarker(text, "Observation:");
  if (!(0 <= i && i < j)) return { name: "", args: "", text };
  // The model may have stopped before writing its Observation marker: put it back.
  const full = k < j ? pyRstrip(text) + observation : text;
  const end = full.lastIndexOf(observation);
  return {
    name: pyStrip(full.slice(i + action.length, j)),
    args: pyStrip(full.slice(j + actionInput.length, end)),
    text: full.slice(0, end),
  };
}
