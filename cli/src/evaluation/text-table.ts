/** The plain-text tables `autograms eval` prints: columns padded to their widest cell, the last one left as it is. */

export const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** A path cut from its start, so its end (the file's name) stays. */
export const clipStart = (text: string, width: number) =>
  text.length > width ? `…${text.slice(text.length - width + 1)}` : text;

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}
