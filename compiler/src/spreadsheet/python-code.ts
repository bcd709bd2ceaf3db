/**
 * The original's code cells were Python; the graph's code is the evaluator's language (a subset
 * of JavaScript). This translates the Python the original's sheets use: `len(x)`, `x.append(y)`,
 * `list.append(x, y)`, slices, `True`/`False`/`None`, `and`/`or`/`not`, `in`, `//`, `**`,
 * `str`/`int`/`float`, `math.*`, `json.*`, string methods, and `$x` (the original's splice of a
 * variable's text). See docs/spreadsheets.md for the table.
 */

/** Python that has no translation: an error at its place in the cell. */
export class Untranslatable extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Text that is not Python at all (most likely the evaluator's own language already). */
class NotPython extends Error {}

export type Translation =
  | { kind: "translated"; code: string }
  /** Nothing Python-specific in it: use the text as written. */
  | { kind: "unchanged" }
  | { kind: "not_python" }
  | { kind: "untranslatable"; message: string; offset: number };

interface Token {
  kind: "name" | "number" | "string" | "op" | "splice" | "end";
  text: string;
  /** A string's value. */
  value?: string;
  offset: number;
}

const OPERATORS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "**",
  "//",
  "==",
  "!=",
  "<=",
  ">=",
  "<<",
  ">>",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "->",
  ":=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "=",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "~",
  "&",
  "|",
  "^",
  "@",
  ";",
];

function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      i++;
      continue;
    }
    if (c === "#") throw new Untranslatable("a comment: write the code alone in the cell", i);
    const start = i;
    const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(code.slice(i));
    if (str && (str[1] === "" || /^[rRbBuUfF]+$/.test(str[1]!))) {
      const prefix = str[1]!.toLowerCase();
      if (prefix.includes("f")) throw new Untranslatable("an f-string has no translation: join the parts with +", i);
      const quote = str[2]!;
      i += str[0].length;
      let value = "";
      for (;;) {
        if (i >= code.length) throw new NotPython();
        if (code.startsWith(quote, i)) {
          i += quote.length;
          break;
        }
        const ch = code[i]!;
        if (ch === "\\" && !prefix.includes("r")) {
          const next = code[i + 1] ?? "";
          const simple: Record<string, string> = {
            n: "\n",
            t: "\t",
            r: "\r",
            "\\": "\\",
            "'": "'",
            '"': '"',
            "0": "\0",
          };
          if (next in simple) {
            value += simple[next];
            i += 2;
            continue;
          }
          const hex = /^x([0-9a-fA-F]{2})|^u([0-9a-fA-F]{4})/.exec(code.slice(i + 1));
          if (hex) {
            value += String.fromCharCode(parseInt(hex[1] ?? hex[2]!, 16));
            i += 1 + hex[0].length;
            continue;
          }
          value += ch;
          i++;
          continue;
        }
        value += ch;
        i++;
      }
      tokens.push({ kind: "string", text: code.slice(start, i), value, offset: start });
      continue;
    }
    const num =
      /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJ]?/.exec(
        code.slice(i),
      );
    if (num && /[\d.]/.test(c)) {
      if (/[jJ]$/.test(num[0])) throw new Untranslatable("a complex number has no translation", i);
      i += num[0].length;
      tokens.push({ kind: "number", text: num[0].replace(/_/g, ""), offset: start });
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(i));
    if (name) {
      i += name[0].length;
      tokens.push({ kind: "name", text: name[0], offset: start });
      continue;
    }
    const splice = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(code.slice(i));
    if (splice) {
      i += splice[0].length;
      tokens.push({ kind: "splice", text: splice[1]!, offset: start });
      continue;
    }
    const op = OPERATORS.find((o) => code.startsWith(o, i));
    if (!op) throw new NotPython();
    i += op.length;
    tokens.push({ kind: "op", text: op, offset: start });
  }
  tokens.push({ kind: "end", text: "", offset: code.length });
  return tokens;
}

/** JavaScript's reserved words that Python code may use as names: they cannot be translated as names. */
const JS_ONLY_WORDS = new Set([
  "let",
  "const",
  "var",
  "function",
  "this",
  "new",
  "typeof",
  "instanceof",
  "void",
  "delete",
  "switch",
  "case",
  "do",
  "catch",
  "throw",
  "null",
  "undefined",
  "true",
  "false",
]);
const KEYWORDS = new Set(["and", "or", "not", "in", "is", "if", "else", "lambda", "for", "True", "False", "None"]);

const BUILTIN_CALLS: Record<string, (args: string[], at: number) => string> = {
  len: (a, at) => `${atom(one(a, "len", at))}.length`,
  str: (a, at) => `String(${one(a, "str", at)})`,
  float: (a, at) => `Number(${one(a, "float", at)})`,
  int: (a, at) => `Math.trunc(Number(${one(a, "int", at)}))`,
  bool: (a, at) => `Boolean(${one(a, "bool", at)})`,
  abs: (a, at) => `Math.abs(${one(a, "abs", at)})`,
  round: (a, at) => `Math.round(${one(a, "round", at)})`,
  min: (a) => (a.length === 1 ? `Math.min(...${atom(a[0]!)})` : `Math.min(${a.join(", ")})`),
  max: (a) => (a.length === 1 ? `Math.max(...${atom(a[0]!)})` : `Math.max(${a.join(", ")})`),
  sum: (a, at) => `${atom(one(a, "sum", at))}.reduce((a, b) => a + b, 0)`,
  sorted: (a, at) => `[...${atom(one(a, "sorted", at))}].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))`,
  list: (a, at) => `[...${atom(one(a, "list", at))}]`,
  // The debug print: a trace event here, where the original wrote to its process's stdout.
  print: (a) => `console.log(${a.join(", ")})`,
};

/** Python builtins with no translation: an error rather than a call to a function that does not exist. */
const UNTRANSLATED_BUILTINS = new Set([
  "range",
  "enumerate",
  "zip",
  "map",
  "filter",
  "input",
  "open",
  "eval",
  "exec",
  "dict",
  "set",
  "tuple",
  "type",
  "isinstance",
  "reversed",
  "any",
  "all",
  "ord",
  "chr",
  "divmod",
  "pow",
  "hash",
  "id",
  "iter",
  "next",
  "format",
  "repr",
  "getattr",
  "setattr",
  "hasattr",
  "globals",
  "locals",
  "vars",
  "dir",
  "__import__",
]);

const MATH_FUNCTIONS = new Set([
  "floor",
  "ceil",
  "sqrt",
  "exp",
  "sin",
  "cos",
  "tan",
  "asin",
  "acos",
  "atan",
  "atan2",
  "log10",
  "log2",
  "trunc",
  "hypot",
]);
const MATH_CONSTANTS: Record<string, string> = { pi: "Math.PI", e: "Math.E", inf: "Infinity" };

const METHODS: Record<string, (object: string, args: string[], at: number) => string> = {
  append: (o, a, at) => `${o}.push(${one(a, "append", at)})`,
  extend: (o, a, at) => `${o}.push(...${atom(one(a, "extend", at))})`,
  insert: (o, a) => `${o}.splice(${a[0] ?? "0"}, 0, ${a[1] ?? "null"})`,
  upper: (o) => `${o}.toUpperCase()`,
  lower: (o) => `${o}.toLowerCase()`,
  strip: (o, a) => (a.length ? untranslatedArgs("strip") : `${o}.trim()`),
  lstrip: (o, a) => (a.length ? untranslatedArgs("lstrip") : `${o}.trimStart()`),
  rstrip: (o, a) => (a.length ? untranslatedArgs("rstrip") : `${o}.trimEnd()`),
  startswith: (o, a) => `${o}.startsWith(${a.join(", ")})`,
  endswith: (o, a) => `${o}.endsWith(${a.join(", ")})`,
  find: (o, a) => `${o}.indexOf(${a.join(", ")})`,
  index: (o, a) => `${o}.indexOf(${a.join(", ")})`,
  replace: (o, a) => `${o}.replaceAll(${a.join(", ")})`,
  join: (o, a, at) => `${atom(one(a, "join", at))}.join(${o})`,
  keys: (o) => `Object.keys(${o})`,
  values: (o) => `Object.values(${o})`,
  items: (o) => `Object.entries(${o})`,
  get: (o, a) => `(${o}[${a[0]}] ?? ${a[1] ?? "null"})`,
  copy: (o) => `structuredClone(${o})`,
};

function untranslatedArgs(method: string): never {
  throw new Untranslatable(`${method}() with characters to strip has no translation`, 0);
}

function one(args: string[], fn: string, at: number): string {
  if (args.length !== 1) throw new Untranslatable(`${fn}() takes one argument here`, at);
  return args[0]!;
}

/** An expression as an operand of a member access or an operator: parenthesised unless simple. */
function atom(js: string): string {
  return isWrapped(js) || (!/^[-+~!]/.test(js) && !hasTopLevelSpace(js)) ? js : `(${js})`;
}

/** A space outside strings and brackets: an operator at the top. */
function hasTopLevelSpace(js: string): boolean {
  let depth = 0;
  for (let i = 0; i < js.length; i++) {
    const c = js[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === '"') {
      i++;
      while (i < js.length && js[i] !== '"') {
        if (js[i] === "\\") i++;
        i++;
      }
    } else if (c === " " && depth === 0) return true;
  }
  return false;
}

function isWrapped(js: string): boolean {
  if (!/^[([]/.test(js)) return false;
  let depth = 0;
  for (let i = 0; i < js.length; i++) {
    const c = js[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") {
      depth--;
      if (depth === 0 && i < js.length - 1) return false;
    } else if (c === '"') {
      i++;
      while (i < js.length && js[i] !== '"') {
        if (js[i] === "\\") i++;
        i++;
      }
    }
  }
  return true;
}

class Parser {
  private i = 0;
  /** Something Python-specific was rewritten. */
  changed = false;

  constructor(private readonly tokens: Token[]) {}

  private get t(): Token {
    return this.tokens[this.i]!;
  }
  private peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)]!;
  }
  private is(text: string): boolean {
    return this.t.kind !== "string" && this.t.text === text;
  }
  private take(text: string): boolean {
    if (!this.is(text)) return false;
    this.i++;
    return true;
  }
  private expect(text: string): void {
    if (!this.take(text)) throw new NotPython();
  }

  statement(): string {
    // `target = value` / `target += value`: the target is a name, a subscript or an attribute.
    const save = this.i;
    if (this.t.kind === "name" && !KEYWORDS.has(this.t.text)) {
      const target = this.postfix(this.atom());
      const next: Token = this.tokens[this.i]!;
      const op = next.text;
      if (
        next.kind === "op" &&
        ["=", "+=", "-=", "*=", "/=", "%=", "**=", "//=", "&=", "|=", "^=", "<<=", ">>="].includes(op)
      ) {
        if (this.peek().kind === "end") throw new NotPython();
        this.i++;
        const value = this.expression();
        if (this.is(","))
          throw new Untranslatable(
            "assigning several values at once has no translation: one assignment per node",
            this.t.offset,
          );
        this.end();
        if (op === "//=") {
          this.changed = true;
          return `${target} = Math.floor(${target} / ${atom(value)})`;
        }
        return `${target} ${op} ${value}`;
      }
      this.i = save;
    }
    const value = this.expression();
    if (this.is(",")) {
      // A tuple at the top: `a, b` is a list.
      const items = [value];
      while (this.take(",")) if (this.t.kind !== "end") items.push(this.expression());
      this.changed = true;
      this.end();
      return `[${items.join(", ")}]`;
    }
    this.end();
    return value;
  }

  private end(): void {
    if (this.t.kind !== "end") {
      if (this.is(";"))
        throw new Untranslatable("several statements in one cell: one statement per node", this.t.offset);
      throw new NotPython();
    }
  }

  expression(): string {
    if (this.is("lambda")) throw new Untranslatable("a lambda has no translation", this.t.offset);
    const value = this.or();
    if (this.is("if")) {
      this.i++;
      const test = this.or();
      this.expect("else");
      const other = this.expression();
      this.changed = true;
      return `${atom(test)} ? ${atom(value)} : ${atom(other)}`;
    }
    return value;
  }

  private or(): string {
    let left = this.and();
    while (this.take("or")) {
      this.changed = true;
      left = `${atom(left)} || ${atom(this.and())}`;
    }
    return left;
  }

  private and(): string {
    let left = this.not();
    while (this.take("and")) {
      this.changed = true;
      left = `${atom(left)} && ${atom(this.not())}`;
    }
    return left;
  }

  private not(): string {
    if (this.take("not")) {
      this.changed = true;
      return `!${atom(this.not())}`;
    }
    return this.comparison();
  }

  private comparison(): string {
    const first = this.binary(0);
    const parts: string[] = [];
    let left = first;
    for (;;) {
      let op: string | null = null;
      if (["<", ">", "==", "!=", "<=", ">="].some((o) => this.is(o))) op = this.t.text;
      else if (this.is("in")) op = "in";
      else if (this.is("not") && this.peek().text === "in") {
        op = "not in";
        this.i++;
      } else if (this.is("is")) {
        op = this.peek().text === "not" ? "is not" : "is";
        if (op === "is not") this.i++;
      }
      if (op === null) break;
      this.i++;
      const right = this.binary(0);
      let js: string;
      if (op === "in") {
        this.changed = true;
        js = `${atom(right)}.includes(${left})`;
      } else if (op === "not in") {
        this.changed = true;
        js = `!${atom(right)}.includes(${left})`;
      } else if (op === "is") {
        this.changed = true;
        js = `${atom(left)} === ${atom(right)}`;
      } else if (op === "is not") {
        this.changed = true;
        js = `${atom(left)} !== ${atom(right)}`;
      } else js = `${atom(left)} ${op} ${atom(right)}`;
      parts.push(js);
      left = right;
    }
    if (parts.length === 0) return first;
    if (parts.length > 1) this.changed = true;
    return parts.length === 1 ? parts[0]! : parts.map(atom).join(" && ");
  }

  /** Binary operators from `|` to `*`, by level. */
  private static readonly LEVELS = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "//", "%", "@"]];

  private binary(level: number): string {
    if (level >= Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    while (this.t.kind === "op" && Parser.LEVELS[level]!.includes(this.t.text)) {
      const op = this.t.text;
      const at = this.t.offset;
      this.i++;
      const right = this.binary(level + 1);
      if (op === "@") throw new Untranslatable("matrix multiplication (@) has no translation", at);
      if (op === "//") {
        this.changed = true;
        left = `Math.floor(${atom(left)} / ${atom(right)})`;
      } else left = `${atom(left)} ${op} ${atom(right)}`;
    }
    return left;
  }

  private unary(): string {
    if (this.t.kind === "op" && ["-", "+", "~"].includes(this.t.text)) {
      const op = this.t.text;
      this.i++;
      return `${op}${atom(this.unary())}`;
    }
    const base = this.postfix(this.atom());
    if (this.take("**")) return `${atom(base)} ** ${atom(this.unary())}`;
    return base;
  }

  private postfix(start: { js: string; name?: string; at?: number }): string {
    let js = start.js;
    let name = start.name;
    const nameAt = start.at ?? 0;
    for (;;) {
      if (this.is(".")) {
        this.i++;
        if (this.t.kind !== "name") throw new NotPython();
        const member = this.t.text;
        const at = this.t.offset;
        this.i++;
        if (this.is("(")) {
          const args = this.args();
          const translated = this.call(name, js, member, args, at);
          js = translated;
        } else if (name === "math" && Object.hasOwn(MATH_CONSTANTS, member)) {
          this.changed = true;
          js = MATH_CONSTANTS[member]!;
        } else js = `${js}.${member}`;
        name = undefined;
        continue;
      }
      if (this.is("(")) {
        const at = this.t.offset;
        const args = this.args();
        if (name !== undefined && Object.hasOwn(BUILTIN_CALLS, name)) {
          this.changed = true;
          js = BUILTIN_CALLS[name]!(args, at);
        } else if (name !== undefined && UNTRANSLATED_BUILTINS.has(name))
          throw new Untranslatable(`Python's ${name}() has no translation`, nameAt);
        else js = `${js}(${args.join(", ")})`;
        name = undefined;
        continue;
      }
      if (this.is("[")) {
        this.i++;
        js = this.subscript(js);
        name = undefined;
        continue;
      }
      return js;
    }
  }

  /** `obj.method(args)`: `math.*`, `json.*`, `list.append(x, y)`, and the methods that differ. */
  private call(objectName: string | undefined, object: string, member: string, args: string[], at: number): string {
    if (objectName === "math") {
      this.changed = true;
      if (MATH_FUNCTIONS.has(member)) return `Math.${member}(${args.join(", ")})`;
      if (member === "fabs") return `Math.abs(${args.join(", ")})`;
      if (member === "pow") return `${atom(args[0] ?? "0")} ** ${atom(args[1] ?? "1")}`;
      if (member === "log" && args.length === 1) return `Math.log(${args[0]})`;
      if (member === "log" && args.length === 2) return `Math.log(${args[0]}) / Math.log(${args[1]})`;
      throw new Untranslatable(`math.${member}() has no translation`, at);
    }
    if (objectName === "json") {
      this.changed = true;
      if (member === "loads") return `JSON.parse(${args.join(", ")})`;
      if (member === "dumps" && args.length === 1) return `JSON.stringify(${args[0]})`;
      throw new Untranslatable(`json.${member}() has no translation`, at);
    }
    if (objectName === "list" && member === "append") {
      this.changed = true;
      if (args.length !== 2) throw new Untranslatable("list.append() takes the list and the value", at);
      return `${atom(args[0]!)}.push(${args[1]})`;
    }
    if (Object.hasOwn(METHODS, member)) {
      this.changed = true;
      return METHODS[member]!(atom(object), args, at);
    }
    return `${object}.${member}(${args.join(", ")})`;
  }

  private args(): string[] {
    this.expect("(");
    const args: string[] = [];
    while (!this.is(")")) {
      if (this.t.kind === "name" && this.peek().text === "=")
        throw new Untranslatable("a keyword argument has no translation: pass the arguments in order", this.t.offset);
      if (this.is("*") || this.is("**"))
        throw new Untranslatable("unpacking arguments (*args) has no translation", this.t.offset);
      args.push(this.expression());
      if (this.is("for")) throw new Untranslatable("a generator expression has no translation", this.t.offset);
      if (!this.take(",")) break;
    }
    this.expect(")");
    return args;
  }

  /** `x[i]`, `x[-1]`, `x[a:b]`. */
  private subscript(object: string): string {
    const at = this.t.offset;
    const part = () => (this.is(":") || this.is("]") ? null : this.expression());
    const first = part();
    if (this.take(":")) {
      const second = part();
      if (this.take(":")) {
        const step = part();
        if (step === "-1" && first === null && second === null) {
          this.expect("]");
          this.changed = true;
          return `${atom(object)}.slice().reverse()`;
        }
        throw new Untranslatable("a slice with a step has no translation", at);
      }
      this.expect("]");
      this.changed = true;
      return `${atom(object)}.slice(${first ?? "0"}${second === null ? "" : `, ${second}`})`;
    }
    this.expect("]");
    if (first === null) throw new NotPython();
    // A negative index counts from the end in Python; in JavaScript only .at() does.
    if (/^-/.test(first)) {
      this.changed = true;
      return `${atom(object)}.at(${first})`;
    }
    return `${object}[${first}]`;
  }

  private atom(): { js: string; name?: string; at?: number } {
    const t = this.t;
    this.i++;
    switch (t.kind) {
      case "number":
        return { js: t.text };
      case "string":
        if (t.text !== JSON.stringify(t.value)) this.changed = true;
        return { js: JSON.stringify(t.value) };
      case "splice":
        // The original pasted the variable's text into the code: text that holds a value is parsed.
        this.changed = true;
        return { js: `(typeof ${t.text} === "string" ? JSON.parse(${t.text}) : ${t.text})` };
      case "name": {
        if (t.text === "True" || t.text === "False" || t.text === "None") {
          this.changed = true;
          return { js: t.text === "None" ? "null" : t.text.toLowerCase() };
        }
        if (KEYWORDS.has(t.text) || JS_ONLY_WORDS.has(t.text)) throw new NotPython();
        return { js: t.text, name: t.text, at: t.offset };
      }
      case "op":
        if (t.text === "(") {
          if (this.take(")")) {
            this.changed = true;
            return { js: "[]" };
          }
          const inner = this.expression();
          if (this.is("for")) throw new Untranslatable("a generator expression has no translation", this.t.offset);
          if (this.is(",")) {
            const items = [inner];
            while (this.take(",")) if (!this.is(")")) items.push(this.expression());
            this.expect(")");
            this.changed = true;
            return { js: `[${items.join(", ")}]` };
          }
          this.expect(")");
          return { js: `(${inner})` };
        }
        if (t.text === "[") {
          const items: string[] = [];
          while (!this.is("]")) {
            items.push(this.expression());
            if (this.is("for")) throw new Untranslatable("a list comprehension has no translation", this.t.offset);
            if (!this.take(",")) break;
          }
          this.expect("]");
          return { js: `[${items.join(", ")}]` };
        }
        if (t.text === "{") {
          const entries: string[] = [];
          while (!this.is("}")) {
            const key = this.expression();
            if (!this.take(":")) throw new Untranslatable("a set has no translation: use a list", t.offset);
            entries.push(`${/^"/.test(key) ? key : `[${key}]`}: ${this.expression()}`);
            if (this.is("for")) throw new Untranslatable("a dict comprehension has no translation", this.t.offset);
            if (!this.take(",")) break;
          }
          this.expect("}");
          return { js: `{ ${entries.join(", ")} }` };
        }
        throw new NotPython();
      default:
        throw new NotPython();
    }
  }
}

/** Translates one code cell (a statement or an expression) from the original's Python. */
export function translatePython(code: string): Translation {
  try {
    const parser = new Parser(tokenize(code));
    const js = parser.statement();
    return parser.changed ? { kind: "translated", code: js } : { kind: "unchanged" };
  } catch (error) {
    if (error instanceof Untranslatable)
      return { kind: "untranslatable", message: error.message, offset: error.offset };
    if (error instanceof NotPython) return { kind: "not_python" };
    throw error;
  }
}
