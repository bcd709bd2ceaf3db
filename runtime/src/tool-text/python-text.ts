// Python's notion of whitespace (str.isspace, used by argument-less strip/rstrip/lstrip) differs from
// JavaScript's trim(): Python also strips \x1c-\x1f and \x85, and does not strip \ufeff.
// This is the exact set of Python 3's str.isspace() (all of it lies in the BMP).
const PYTHON_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** The code points Python 3 treats as whitespace, ascending. */
export const pythonWhitespace: readonly number[] = [...PYTHON_WHITESPACE];

const isSpace = (s: string, i: number) => PYTHON_WHITESPACE.has(s.charCodeAt(i));

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return pyLstrip(pyRstrip(s));
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isSpace(s, end - 1)) end--;
  return s.slice(0, end);
}

/** Python `s.lstrip()`. */
export function pyLstrip(s: string): string {
  let start = 0;
  while (start < s.length && isSpace(s, start)) start++;
  return s.slice(start);
}

/** Python `s.lstrip(char)` for a single character. */
export function pyLstripChar(s: string, char: string): string {
  let start = 0;
  while (start < s.length && s[start] === char) start++;
  return s.slice(start);
}
