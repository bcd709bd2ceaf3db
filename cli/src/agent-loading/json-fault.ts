// Where text stops being JSON, as line:column: V8's messages give a character position, or none
// (Node 20: `Unexpected token ',', "..." is not valid JSON`), and quote the text.

export interface JsonFaultAt {
  line: number;
  column: number;
  why: string;
}

class Fault {
  constructor(
    readonly at: number,
    readonly why: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first place `text` is not JSON, and what was wrong there; undefined when it is JSON. */
export function jsonFaultAt(text: string): JsonFaultAt | undefined {
  let i = 0;
  const fail = (why: string): never => {
    throw new Fault(i, why);
  };
  const here = () => (i >= text.length ? "the end of the text" : JSON.stringify(text[i]));
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail("a string that does not end");
      if (c === '"') return void i++;
      if (c === "\\") {
        i++;
        if (text[i] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail("a bad escape in a string");
      } else if (c! < " ") fail("a control character in a string (write it escaped)");
      else i++;
    }
  };
  const list = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === ",") {
        i++;
        space();
        if (text[i] === close) fail(`a trailing comma before '${close}'`);
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected ',' or '${close}', found ${here()}`);
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{")
      return list("}", () => {
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${here()}`);
        string();
        space();
        if (text[i] !== ":") fail(`expected ':', found ${here()}`);
        i++;
        value();
      });
    if (c === "[") return list("]", value);
    if (c === '"') return string();
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(`expected a value, found ${here()}`);
  };
  try {
    value();
    space();
    if (i < text.length) fail(`more after the value: ${here()}`);
    return undefined;
  } catch (err) {
    // Nesting deeper than the stack: no place to tell.
    if (!(err instanceof Fault)) return undefined;
    const lines = text.slice(0, err.at).split("\n");
    return { line: lines.length, column: lines.at(-1)!.length + 1, why: err.why };
  }
}

/** `line:column` (both from 1) of a character offset in `text`. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before.at(-1)!.length + 1}`;
}
