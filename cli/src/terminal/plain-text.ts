// Text that a model or a saved memory wrote reaches the terminal without control sequences: an
// escape code in a reply could recolour the screen, move the cursor, retitle the window, rewrite
// earlier lines (a carriage return) or hide what follows.

// ESC sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_ ...
// ST), and the two-byte ones; then their 8-bit C1 forms (CSI 0x9b, OSC 0x9d, DCS 0x90...).
const ESCAPES = new RegExp(
  [
    "\\x1b\\[[0-?]*[ -/]*[@-~]?",
    "\\x1b\\][^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?",
    "\\x1b[PX^_][^\\x1b\\x9c]*(?:\\x1b\\\\|\\x9c)?",
    "\\x1b[ -/]*[0-~]?",
    "\\x9b[0-?]*[ -/]*[@-~]?",
    "[\\x9d\\x90\\x98\\x9e\\x9f][^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?",
  ].join("|"),
  "g",
);
// Every other C0 and C1 control but the line feed and the tab.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` without terminal control sequences and control characters (line feeds and tabs stay). */
export function plainText(text: string): string {
  return text.replace(ESCAPES, "").replace(CONTROLS, "");
}
