/**
 * CSV text ⇄ rows of cells (RFC 4180, plus what spreadsheet programs write: a UTF-8 byte order
 * mark, CRLF or LF or CR line ends, quoted cells spanning lines). Written here rather than taken
 * from a CSV package because the importer needs every cell's line and column in the text for its
 * diagnostics, and the format is small.
 */

export interface CsvCell {
  value: string;
  /** Where the cell starts in the text, 1-based. */
  line: number;
  column: number;
}

export interface CsvError {
  message: string;
  line: number;
  column: number;
  /** The row and cell (both 0-based) the error is in. */
  row: number;
  cell: number;
}

export interface CsvTable {
  rows: CsvCell[][];
  errors: CsvError[];
}

/** Reads every row it can; a malformed cell is reported and read as well as possible, never thrown. */
export function parseCsv(text: string): CsvTable {
  const rows: CsvCell[][] = [];
  const errors: CsvError[] = [];
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  let line = 1;
  let lineStart = i;
  let row: CsvCell[] = [];
  const at = () => ({ line, column: i - lineStart + 1 });
  const newline = () => {
    // A CRLF pair is one line end.
    if (text[i] === "\r" && text[i + 1] === "\n") i++;
    i++;
    line++;
    lineStart = i;
  };

  while (i < text.length) {
    const start = at();
    let value = "";
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const ch = text[i];
        if (ch === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (ch === "\r" || ch === "\n") {
          value += "\n";
          newline();
          continue;
        }
        value += ch;
        i++;
      }
      if (!closed) {
        errors.push({
          message: "a quoted cell is never closed (a '\"' is missing)",
          ...start,
          row: rows.length,
          cell: row.length,
        });
      } else if (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        errors.push({
          message: 'text after the closing quote of a quoted cell (write a quote inside a quoted cell as "")',
          ...at(),
          row: rows.length,
          cell: row.length,
        });
        while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") value += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") value += text[i++];
    }
    row.push({ value, ...start });
    if (text[i] === ",") {
      i++;
      // A comma at the very end of the text still opens one more (empty) cell.
      if (i === text.length) row.push({ value: "", ...at() });
      continue;
    }
    rows.push(row);
    row = [];
    if (i < text.length) {
      newline();
      // A blank line is a row of one empty cell, as spreadsheet programs read it.
      while (i < text.length && (text[i] === "\r" || text[i] === "\n")) {
        rows.push([{ value: "", ...at() }]);
        newline();
      }
    }
  }
  if (row.length) rows.push(row);
  return { rows, errors };
}

/** Quotes a cell only when it must be: it holds a comma, a quote, a line break, or edge spaces. */
function writeCell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function writeCsv(rows: string[][]): string {
  return rows.map((r) => r.map(writeCell).join(",")).join("\n") + "\n";
}
