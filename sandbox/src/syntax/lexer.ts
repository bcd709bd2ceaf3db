import { SandboxError } from "../errors.js";

/**
 * Tokens of the sandbox language. The lexer knows no regular expressions (a `/` is always an
 * operator) and no escapes inside identifiers, so `\u0063onstructor` cannot smuggle a name past
 * the checks that look at identifiers.
 */
export type TokenType = "name" | "number" | "bigint" | "string" | "template" | "punct" | "eof";

export interface Token {
  type: TokenType;
  /** The name, the punctuator, or the cooked text of a string or template part. */
  value: string;
  start: number;
  end: number;
  /** A line break precedes the token (automatic semicolons, restricted productions). */
  newline: boolean;
  number?: number;
  bigint?: bigint;
  /** Template part: `head` opens a template, `tail` closes it. */
  head?: boolean;
  tail?: boolean;
  /** For `(`, `[` and `{`: the index of the token that closes it. */
  close?: number;
}

const PUNCTUATORS = [
  ">>>=",
  "...",
  "===",
  "!==",
  "**=",
  "<<=",
  ">>=",
  ">>>",
  "&&=",
  "||=",
  "??=",
  "=>",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "??",
  "?.",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "**",
  "<<",
  ">>",
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  ";",
  ",",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "!",
  "~",
  "?",
  ":",
  "=",
  ".",
];

/** Punctuators grouped by first character, longest first, so matching is one lookup and a few compares. */
const PUNCT_BY_CHAR = new Map<string, string[]>();
for (const p of PUNCTUATORS) {
  const list = PUNCT_BY_CHAR.get(p[0]!) ?? [];
  list.push(p);
  PUNCT_BY_CHAR.set(p[0]!, list);
}

const ID_START = /[\p{ID_Start}]/u;
const ID_CONTINUE = /[\p{ID_Continue}\u200c\u200d]/u;

const isAsciiIdStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isAsciiIdPart = (c: number) => isAsciiIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

export function tokenize(source: string, maxBigIntBits: number): Token[] {
  return new Lexer(source, maxBigIntBits).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  /** Open brackets (token indices); -1 marks a template substitution `${`. */
  private readonly open: number[] = [];
  private newline = false;

  constructor(
    private readonly src: string,
    private readonly maxBigIntBits: number,
  ) {}

  run(): Token[] {
    const src = this.src;
    for (;;) {
      this.skipSpace();
      if (this.pos >= src.length) break;
      const c = src.charCodeAt(this.pos);
      if (isAsciiIdStart(c) || c === 92 || (c > 127 && this.nonAsciiIdStart())) this.name();
      else if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(this.pos + 1)))) this.numberLiteral();
      else if (c === 34 || c === 39) this.stringLiteral(c);
      else if (c === 96) this.template(this.pos, true);
      else if (c === 125 && this.open.length > 0 && this.open[this.open.length - 1] === -1) {
        this.open.pop();
        this.template(this.pos, false);
      } else this.punctuator();
    }
    if (this.open.length > 0) {
      const index = this.open[this.open.length - 1]!;
      const token = index >= 0 ? this.tokens[index]! : undefined;
      throw this.error(
        token ? `'${token.value}' is never closed` : "unterminated template literal",
        token?.start ?? src.length,
      );
    }
    this.newline = true;
    this.push("eof", "", src.length, src.length);
    return this.tokens;
  }

  private error(message: string, offset = this.pos): SandboxError {
    return new SandboxError("syntax", message, { offset });
  }

  /** One object shape for every token keeps the parser's property reads monomorphic. */
  private push(type: TokenType, value: string, start: number, end: number, extra?: Partial<Token>): void {
    this.tokens.push({
      type,
      value,
      start,
      end,
      newline: this.newline,
      number: extra?.number,
      bigint: extra?.bigint,
      head: extra?.head,
      tail: extra?.tail,
      close: undefined,
    });
    this.newline = false;
  }

  private skipSpace(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) {
        this.newline = true;
        this.pos++;
      } else if (
        c === 32 ||
        c === 9 ||
        c === 11 ||
        c === 12 ||
        c === 0xa0 ||
        c === 0xfeff ||
        (c > 127 && /\s/.test(src[this.pos]!))
      ) {
        this.pos++;
      } else if (c === 47 && src.charCodeAt(this.pos + 1) === 47) {
        while (this.pos < src.length && !/[\n\r\u2028\u2029]/.test(src[this.pos]!)) this.pos++;
      } else if (c === 47 && src.charCodeAt(this.pos + 1) === 42) {
        const end = src.indexOf("*/", this.pos + 2);
        if (end < 0) throw this.error("unterminated comment");
        if (/[\n\r\u2028\u2029]/.test(src.slice(this.pos, end))) this.newline = true;
        this.pos = end + 2;
      } else break;
    }
  }

  private nonAsciiIdStart(): boolean {
    const cp = this.src.codePointAt(this.pos)!;
    return ID_START.test(String.fromCodePoint(cp));
  }

  private name(): void {
    const src = this.src;
    const start = this.pos;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (isAsciiIdPart(c)) this.pos++;
      else if (c === 92) throw this.error("escape sequences in names are not supported");
      else if (c > 127) {
        const ch = String.fromCodePoint(src.codePointAt(this.pos)!);
        if (!ID_CONTINUE.test(ch)) break;
        this.pos += ch.length;
      } else break;
    }
    this.push("name", src.slice(start, this.pos), start, this.pos);
  }

  private numberLiteral(): void {
    const src = this.src;
    const start = this.pos;
    let radix = 10;
    const c1 = src.charCodeAt(this.pos + 1) | 32;
    if (src.charCodeAt(this.pos) === 48 && (c1 === 120 || c1 === 111 || c1 === 98)) {
      radix = c1 === 120 ? 16 : c1 === 111 ? 8 : 2;
      this.pos += 2;
      this.digits(radix);
    } else {
      if (src.charCodeAt(this.pos) === 48 && isDigit(src.charCodeAt(this.pos + 1))) {
        throw this.error("numbers with a leading zero (legacy octal) are not supported");
      }
      this.digits(10);
      if (src.charCodeAt(this.pos) === 46) {
        this.pos++;
        this.digits(10, true);
      }
      if ((src.charCodeAt(this.pos) | 32) === 101) {
        this.pos++;
        const sign = src.charCodeAt(this.pos);
        if (sign === 43 || sign === 45) this.pos++;
        if (!isDigit(src.charCodeAt(this.pos))) throw this.error("invalid number: missing exponent digits");
        this.digits(10);
      }
    }
    const isBig = src.charCodeAt(this.pos) === 110;
    const raw = src.slice(start, this.pos);
    const text = raw.includes("_") ? raw.replace(/_/g, "") : raw;
    if (isBig) this.pos++;
    const next = src.charCodeAt(this.pos);
    if (isAsciiIdPart(next) || next === 92 || (next === 46 && isBig)) {
      throw this.error("invalid number: an identifier starts right after it");
    }
    if (isBig) {
      if (radix === 10 && /[.eE]/.test(text)) throw this.error("invalid BigInt literal");
      const digits = radix === 10 ? text.length : text.length - 2;
      const bitsPerDigit = radix === 10 ? 3.33 : Math.log2(radix);
      if ((digits - 1) * bitsPerDigit > this.maxBigIntBits) {
        throw new SandboxError("limit", `BigInt literal larger than ${this.maxBigIntBits} bits (maxBigIntBits)`, {
          limit: "maxBigIntBits",
          offset: start,
        });
      }
      this.push("bigint", text, start, this.pos, { bigint: BigInt(text) });
    } else {
      this.push("number", text, start, this.pos, { number: Number(text) });
    }
  }

  private digits(radix: number, optional = false): void {
    const src = this.src;
    const start = this.pos;
    let lastUnderscore = false;
    for (;;) {
      const c = src.charCodeAt(this.pos);
      const lower = c | 32;
      const value = isDigit(c) ? c - 48 : lower >= 97 && lower <= 122 ? lower - 87 : 99;
      if (c === 95) {
        if (this.pos === start || lastUnderscore) throw this.error("invalid numeric separator");
        lastUnderscore = true;
      } else if (value < radix) lastUnderscore = false;
      else break;
      this.pos++;
    }
    if (lastUnderscore) throw this.error("invalid numeric separator");
    if (this.pos === start && !optional) throw this.error("invalid number");
  }

  private stringLiteral(quote: number): void {
    const src = this.src;
    const start = this.pos++;
    let out = "";
    let chunk = this.pos;
    for (;;) {
      if (this.pos >= src.length) throw this.error("unterminated string", start);
      const c = src.charCodeAt(this.pos);
      if (c === quote) break;
      if (c === 92) {
        out += src.slice(chunk, this.pos);
        out += this.escape(false);
        chunk = this.pos;
      } else if (c === 10 || c === 13) {
        throw this.error("unterminated string", start);
      } else this.pos++;
    }
    out += src.slice(chunk, this.pos);
    this.pos++;
    this.push("string", out, start, this.pos);
  }

  /** One template part, from the backtick or closing brace to `${` or the closing backtick. */
  private template(start: number, head: boolean): void {
    const src = this.src;
    this.pos++;
    let out = "";
    let chunk = this.pos;
    for (;;) {
      if (this.pos >= src.length) throw this.error("unterminated template literal", start);
      const c = src.charCodeAt(this.pos);
      if (c === 96) {
        out += src.slice(chunk, this.pos);
        this.pos++;
        this.push("template", out, start, this.pos, { head, tail: true });
        return;
      }
      if (c === 36 && src.charCodeAt(this.pos + 1) === 123) {
        out += src.slice(chunk, this.pos);
        this.pos += 2;
        this.push("template", out, start, this.pos, { head, tail: false });
        this.open.push(-1);
        return;
      }
      if (c === 92) {
        out += src.slice(chunk, this.pos);
        out += this.escape(true);
        chunk = this.pos;
      } else if (c === 13) {
        // Template text normalises CR and CRLF to LF.
        out += src.slice(chunk, this.pos) + "\n";
        this.pos += src.charCodeAt(this.pos + 1) === 10 ? 2 : 1;
        chunk = this.pos;
      } else this.pos++;
    }
  }

  /** Reads the escape at `pos` (a backslash) and returns the characters it stands for. */
  private escape(inTemplate: boolean): string {
    const src = this.src;
    const start = this.pos;
    const c = src[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "v":
        return "\v";
      case "\r":
        if (src[this.pos] === "\n") this.pos++;
        return "";
      case "\n":
      case "\u2028":
      case "\u2029":
        return "";
      case "x": {
        const hex = src.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw this.error("invalid \\x escape", start);
        this.pos += 2;
        return String.fromCharCode(parseInt(hex, 16));
      }
      case "u": {
        let hex: string;
        if (src[this.pos] === "{") {
          const close = src.indexOf("}", this.pos);
          hex = close < 0 ? "" : src.slice(this.pos + 1, close);
          if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff)
            throw this.error("invalid \\u escape", start);
          this.pos = close + 1;
        } else {
          hex = src.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.error("invalid \\u escape", start);
          this.pos += 4;
        }
        return String.fromCodePoint(parseInt(hex, 16));
      }
      case undefined:
        throw this.error(inTemplate ? "unterminated template literal" : "unterminated string", start);
      default:
        if (c === "0" && !isDigit(src.charCodeAt(this.pos))) return "\0";
        if (isDigit(c.charCodeAt(0))) throw this.error("octal escape sequences are not supported", start);
        // Any other escaped character stands for itself (a surrogate pair stays whole).
        if (c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdbff && this.pos < src.length) {
          return c + src[this.pos++];
        }
        return c;
    }
  }

  private punctuator(): void {
    const src = this.src;
    const start = this.pos;
    const ch = src[start]!;
    const candidates = PUNCT_BY_CHAR.get(ch);
    let value: string | undefined;
    if (candidates !== undefined && candidates.length === 1) value = candidates[0];
    else if (candidates !== undefined) {
      for (const p of candidates) {
        if (src.startsWith(p, start)) {
          value = p;
          break;
        }
      }
    }
    // `a?.5:b` is a conditional, not optional chaining.
    if (value === "?." && isDigit(src.charCodeAt(start + 2))) value = "?";
    if (value === undefined) {
      const shown = String.fromCodePoint(src.codePointAt(start)!);
      throw this.error(
        ch === "#"
          ? "private names are not supported"
          : ch === "@"
            ? "decorators are not supported"
            : `unexpected character '${shown}'`,
      );
    }
    this.pos += value.length;
    const index = this.tokens.length;
    if (value === "(" || value === "[" || value === "{") {
      this.open.push(index);
    } else if (value === ")" || value === "]" || value === "}") {
      const opener = this.open.pop();
      const expected = value === ")" ? "(" : value === "]" ? "[" : "{";
      if (opener === undefined || opener < 0 || this.tokens[opener]!.value !== expected) {
        throw this.error(`unexpected '${value}'`, start);
      }
      this.tokens[opener]!.close = index;
    }
    this.push("punct", value, start, this.pos);
  }
}
