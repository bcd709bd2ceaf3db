// How many columns of a terminal a text takes, and so how many rows a reply printed so far spans:
// what a reply being redrawn must go back over. Wide characters (CJK, most emoji) take two
// columns, combining marks and joiners none. Tabs are expanded to spaces first (expandTabs): a
// terminal's tab never wraps, so the rows it takes depend on where it falls.

const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]/u;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** Columns one line (no line feed, no tab) takes. */
export function lineWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ZERO_WIDTH.test(ch)) continue;
    width += WIDE.test(ch) ? 2 : 1;
  }
  return width;
}

/** `text` with each tab replaced by the spaces to the next multiple of 8 columns of its line. */
export function expandTabs(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes("\t")) return line;
      let out = "";
      for (const part of line.split("\t").entries()) {
        const [i, piece] = part;
        if (i > 0) out += " ".repeat(8 - (lineWidth(out) % 8));
        out += piece;
      }
      return out;
    })
    .join("\n");
}

/**
 * The row, counted from the row `text` began on, where the cursor stands once `text` is written
 * from the start of a row on a screen `columns` wide. As terminals do, a character that does not
 * fit in what is left of a row (a wide one in the last column) goes to the next, and a row filled
 * exactly leaves the cursor on it until the next character comes.
 */
export function cursorRow(text: string, columns: number): number {
  let row = 0;
  let column = 0;
  let full = false;
  for (const ch of text) {
    if (ch === "\n") {
      row++;
      column = 0;
      full = false;
      continue;
    }
    if (ZERO_WIDTH.test(ch)) continue;
    const width = WIDE.test(ch) ? 2 : 1;
    if (full || column + width > columns) {
      row++;
      column = 0;
    }
    column += width;
    full = column >= columns;
  }
  return row;
}
