import { SandboxError } from "../errors.js";
import type {
  Arrow,
  ArrayPattern,
  AssignOperator,
  BinaryOperator,
  Block,
  Declaration,
  Expression,
  Identifier,
  ObjectLiteral,
  ObjectPattern,
  Pattern,
  PatternProperty,
  Program,
  PropertyKey,
  Spread,
  Statement,
  Template,
} from "./ast.js";
import { tokenize, type Token } from "./lexer.js";

export interface ParseLimits {
  maxDepth: number;
  maxSourceLength: number;
  maxBigIntBits: number;
}

/**
 * Parses one code text: a few `;`-separated statements (declarations, expressions, `throw`), or
 * one expression. Everything outside the sandbox language is refused here, with a message that
 * says what is not supported, so the evaluator only ever sees the allowed tree.
 */
export function parse(source: string, limits: ParseLimits): Program {
  if (source.length > limits.maxSourceLength) {
    throw new SandboxError("limit", `code longer than ${limits.maxSourceLength} characters (maxSourceLength)`, {
      limit: "maxSourceLength",
      offset: 0,
    });
  }
  return new Parser(tokenize(source, limits.maxBigIntBits), limits.maxDepth).program(source.length);
}

const RESERVED = new Set([
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "let",
  "static",
  "implements",
  "interface",
  "package",
  "private",
  "protected",
  "public",
  "await",
]);

const REFUSED_KEYWORDS: Record<string, string> = {
  this: "'this' is not supported: refer to variables by their names",
  new: "'new' is not supported",
  function: "function declarations are not supported: pass an arrow function to an array method",
  class: "classes are not supported",
  import: "import is not supported",
  export: "export is not supported",
  super: "'super' is not supported",
  with: "'with' is not supported",
  yield: "'yield' is not supported",
  await: "'await' is not supported: tools are awaited by the host",
  for: "loops are not supported here: use array methods (map, filter, reduce, ...)",
  while: "loops are not supported here: use array methods (map, filter, reduce, ...)",
  do: "loops are not supported here: use array methods (map, filter, reduce, ...)",
  switch: "'switch' is not supported here",
  try: "'try' is not supported",
  break: "'break' is not supported here",
  continue: "'continue' is not supported here",
  debugger: "'debugger' is not supported",
  instanceof: "'instanceof' is not supported",
};

const BINARY_PRECEDENCE: Record<string, number> = {
  "??": 1,
  "||": 1,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6,
  "!=": 6,
  "===": 6,
  "!==": 6,
  "<": 7,
  ">": 7,
  "<=": 7,
  ">=": 7,
  in: 7,
  instanceof: 7,
  "<<": 8,
  ">>": 8,
  ">>>": 8,
  "+": 9,
  "-": 9,
  "*": 10,
  "/": 10,
  "%": 10,
  "**": 11,
};

const ASSIGN_OPERATORS = new Set<string>([
  "=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "**=",
  "<<=",
  ">>=",
  ">>>=",
  "&=",
  "|=",
  "^=",
  "&&=",
  "||=",
  "??=",
]);

class Parser {
  private i = 0;
  private depth = 0;
  /** Expressions written inside parentheses (they may mix `??` with `||`, or put `-x` under `**`). */
  private parenthesizedSet: Set<Expression> | null = null;

  constructor(
    private readonly tokens: Token[],
    private readonly maxDepth: number,
  ) {}

  program(length: number): Program {
    const body: Statement[] = [];
    while (this.peek().type !== "eof") {
      if (this.eat(";")) continue;
      body.push(this.statement(false));
    }
    if (body.length === 0) throw this.error("empty code", this.peek());
    return { kind: "Program", body, start: 0, end: length };
  }

  private isParenthesized(expression: Expression): boolean {
    return this.parenthesizedSet !== null && this.parenthesizedSet.has(expression);
  }

  // Tokens.

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.tokens[this.i]!;
    if (token.type !== "eof") this.i++;
    return token;
  }

  private is(value: string, token = this.peek()): boolean {
    return (token.type === "punct" || token.type === "name") && token.value === value;
  }

  private eat(value: string): boolean {
    if (!this.is(value)) return false;
    this.i++;
    return true;
  }

  private expect(value: string): Token {
    const token = this.peek();
    if (!this.is(value)) throw this.unexpected(token, `'${value}'`);
    return this.next();
  }

  private error(message: string, token: Token, kind: "syntax" | "unsupported" = "syntax"): SandboxError {
    return new SandboxError(kind, message, { offset: token.start });
  }

  private unexpected(token: Token, expected?: string): SandboxError {
    if (token.type === "name" && REFUSED_KEYWORDS[token.value] !== undefined) {
      return this.error(REFUSED_KEYWORDS[token.value]!, token, "unsupported");
    }
    const shown =
      token.type === "eof"
        ? "end of code"
        : token.type === "template"
          ? "template literal"
          : token.type === "string"
            ? "string"
            : `'${token.value}'`;
    return this.error(`unexpected ${shown}${expected ? `, expected ${expected}` : ""}`, token);
  }

  private enter(token: Token): void {
    if (++this.depth > this.maxDepth) {
      throw new SandboxError("limit", `code nested deeper than ${this.maxDepth} levels (maxDepth)`, {
        limit: "maxDepth",
        offset: token.start,
      });
    }
  }

  private end(): number {
    return this.tokens[this.i - 1]!.end;
  }

  // Statements.

  private statement(inFunction: boolean): Statement {
    const token = this.peek();
    this.enter(token);
    let statement: Statement;
    if (token.type === "name" && (token.value === "let" || token.value === "const" || token.value === "var")) {
      statement = this.declaration();
    } else if (this.is("throw")) {
      this.next();
      if (this.peek().newline) throw this.error("a line break cannot follow 'throw'", this.peek());
      statement = { kind: "Throw", argument: this.expression(), start: token.start, end: this.end() };
    } else if (inFunction && this.is("if")) {
      this.depth--;
      return this.ifStatement();
    } else if (inFunction && this.is("return")) {
      this.next();
      const argument = this.peek().newline || this.is(";") || this.is("}") ? null : this.expression();
      statement = { kind: "Return", argument, start: token.start, end: this.end() };
    } else if (inFunction && this.is("{")) {
      this.depth--;
      return this.block();
    } else if (!inFunction && (this.is("if") || this.is("return"))) {
      throw this.error(`'${token.value}' is only supported inside an arrow function's block`, token, "unsupported");
    } else if (token.type === "name" && REFUSED_KEYWORDS[token.value] !== undefined && !this.is("this")) {
      throw this.unexpected(token);
    } else {
      // At the top level a leading `{` reads as an object literal: a block means nothing here.
      statement = { kind: "ExpressionStatement", expression: this.expression(), start: token.start, end: this.end() };
    }
    this.semicolon();
    this.depth--;
    return statement;
  }

  private semicolon(): void {
    if (this.eat(";")) return;
    const token = this.peek();
    if (token.type === "eof" || this.is("}") || token.newline) return;
    throw this.unexpected(token, "';' or a line break");
  }

  private declaration(): Declaration {
    const keyword = this.next();
    const declarationKind = keyword.value as Declaration["declarationKind"];
    const declarators: Declaration["declarators"] = [];
    do {
      const start = this.peek();
      const target = this.bindingTarget();
      let init: Expression | null = null;
      if (this.eat("=")) init = this.assignment();
      else if (declarationKind === "const") throw this.error("a const declaration needs a value", this.peek());
      else if (target.kind !== "Identifier") throw this.error("a destructuring declaration needs a value", this.peek());
      declarators.push({ target, init, start: start.start, end: this.end() });
    } while (this.eat(","));
    return { kind: "Declaration", declarationKind, declarators, start: keyword.start, end: this.end() };
  }

  private ifStatement(): Statement {
    const token = this.next();
    this.enter(token);
    this.expect("(");
    const test = this.expression();
    this.expect(")");
    const consequent = this.statement(true);
    const alternate = this.eat("else") ? this.statement(true) : null;
    this.depth--;
    return { kind: "If", test, consequent, alternate, start: token.start, end: this.end() };
  }

  private block(): Block {
    const open = this.expect("{");
    this.enter(open);
    const body: Statement[] = [];
    while (!this.is("}")) {
      if (this.peek().type === "eof") throw this.unexpected(this.peek(), "'}'");
      if (this.eat(";")) continue;
      body.push(this.statement(true));
    }
    this.next();
    this.depth--;
    return { kind: "Block", body, start: open.start, end: this.end() };
  }

  // Expressions, loosest first.

  private expression(): Expression {
    const first = this.assignment();
    if (!this.is(",")) return first;
    const expressions = [first];
    while (this.eat(",")) expressions.push(this.assignment());
    return { kind: "Sequence", expressions, start: first.start, end: this.end() };
  }

  private assignment(): Expression {
    const token = this.peek();
    this.enter(token);
    let result: Expression;
    const after = this.peek(1);
    if (token.type === "name" && !RESERVED.has(token.value) && this.is("=>", after) && !after.newline) {
      result = this.arrow();
    } else if (this.is("(") && this.is("=>", this.tokens[token.close! + 1])) {
      result = this.arrow();
    } else if (this.is("async") && !after.newline && (after.type === "name" || this.is("(", after))) {
      throw this.error("async functions are not supported", token, "unsupported");
    } else {
      const left = this.conditional();
      const operator = this.peek();
      if (operator.type === "punct" && ASSIGN_OPERATORS.has(operator.value)) {
        this.next();
        const target = operator.value === "=" ? this.toPattern(left) : this.toSimpleTarget(left);
        const value = this.assignment();
        result = {
          kind: "Assign",
          operator: operator.value as AssignOperator,
          target,
          value,
          start: left.start,
          end: this.end(),
        };
      } else result = left;
    }
    this.depth--;
    return result;
  }

  private conditional(): Expression {
    const test = this.binary(0);
    if (!this.eat("?")) return test;
    const consequent = this.assignment();
    this.expect(":");
    const alternate = this.assignment();
    return { kind: "Conditional", test, consequent, alternate, start: test.start, end: this.end() };
  }

  private binary(minPrecedence: number): Expression {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      const precedence = token.type === "punct" || token.type === "name" ? BINARY_PRECEDENCE[token.value] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      if (token.value === "instanceof") throw this.unexpected(token);
      this.next();
      const operator = token.value;
      if (operator === "**" && left.kind === "Unary" && !this.isParenthesized(left)) {
        throw this.error("put the unary expression in parentheses before '**'", token);
      }
      const right = this.binary(operator === "**" ? precedence : precedence + 1);
      if (operator === "&&" || operator === "||" || operator === "??") {
        this.checkNullishMix(operator, left, token);
        this.checkNullishMix(operator, right, token);
        left = { kind: "Logical", operator, left, right, start: left.start, end: this.end() };
      } else {
        left = {
          kind: "Binary",
          operator: operator as BinaryOperator,
          left,
          right,
          start: left.start,
          end: this.end(),
        };
      }
    }
  }

  private checkNullishMix(operator: string, operand: Expression, token: Token): void {
    if (operand.kind !== "Logical" || this.isParenthesized(operand)) return;
    if ((operator === "??") !== (operand.operator === "??")) {
      throw this.error("'??' cannot be mixed with '&&' or '||' without parentheses", token);
    }
  }

  private unary(): Expression {
    const token = this.peek();
    this.enter(token);
    let result: Expression;
    if (
      (token.type === "punct" &&
        (token.value === "!" || token.value === "-" || token.value === "+" || token.value === "~")) ||
      (token.type === "name" && (token.value === "typeof" || token.value === "void" || token.value === "delete"))
    ) {
      this.next();
      const argument = this.unary();
      if (token.value === "delete" && (argument.kind !== "Member" || this.isParenthesized(argument))) {
        throw this.error("'delete' applies to a property only, as in 'delete obj.key'", token);
      }
      result = { kind: "Unary", operator: token.value as "-", argument, start: token.start, end: this.end() };
    } else if (this.is("++") || this.is("--")) {
      this.next();
      const argument = this.unary();
      result = {
        kind: "Update",
        operator: token.value as "++",
        prefix: true,
        target: this.toSimpleTarget(argument),
        start: token.start,
        end: this.end(),
      };
    } else {
      result = this.leftHandSide();
      const after = this.peek();
      if ((this.is("++") || this.is("--")) && !after.newline) {
        this.next();
        result = {
          kind: "Update",
          operator: after.value as "++",
          prefix: false,
          target: this.toSimpleTarget(result),
          start: result.start,
          end: this.end(),
        };
      }
    }
    this.depth--;
    return result;
  }

  private leftHandSide(): Expression {
    let expression = this.primary();
    let optional = false;
    for (;;) {
      const token = this.peek();
      if (this.eat(".")) {
        expression = {
          kind: "Member",
          object: expression,
          key: this.propertyName(),
          optional: false,
          start: expression.start,
          end: this.end(),
        };
      } else if (this.eat("?.")) {
        optional = true;
        if (this.is("(")) {
          expression = {
            kind: "Call",
            callee: expression,
            arguments: this.arguments(),
            optional: true,
            start: expression.start,
            end: this.end(),
          };
        } else if (this.is("[")) {
          expression = {
            kind: "Member",
            object: expression,
            key: this.computedKey(),
            optional: true,
            start: expression.start,
            end: this.end(),
          };
        } else {
          expression = {
            kind: "Member",
            object: expression,
            key: this.propertyName(),
            optional: true,
            start: expression.start,
            end: this.end(),
          };
        }
      } else if (this.is("[")) {
        expression = {
          kind: "Member",
          object: expression,
          key: this.computedKey(),
          optional: false,
          start: expression.start,
          end: this.end(),
        };
      } else if (this.is("(")) {
        expression = {
          kind: "Call",
          callee: expression,
          arguments: this.arguments(),
          optional: false,
          start: expression.start,
          end: this.end(),
        };
      } else if (token.type === "template" && token.head) {
        throw this.error("tagged templates are not supported", token, "unsupported");
      } else break;
    }
    if (optional) {
      expression = {
        kind: "Chain",
        expression: expression as Extract<Expression, { kind: "Member" | "Call" }>,
        start: expression.start,
        end: expression.end,
      };
    }
    return expression;
  }

  private propertyName(): PropertyKey {
    const token = this.next();
    if (token.type !== "name") throw this.unexpected(token, "a property name");
    return { kind: "Static", name: token.value };
  }

  private computedKey(): PropertyKey {
    this.expect("[");
    const expression = this.expression();
    this.expect("]");
    return { kind: "Computed", expression };
  }

  private arguments(): (Expression | Spread)[] {
    this.expect("(");
    const args: (Expression | Spread)[] = [];
    while (!this.is(")")) {
      args.push(this.elementOrSpread());
      if (!this.is(")")) this.expect(",");
    }
    this.next();
    return args;
  }

  private elementOrSpread(): Expression | Spread {
    const token = this.peek();
    if (this.eat("...")) return { kind: "Spread", argument: this.assignment(), start: token.start, end: this.end() };
    return this.assignment();
  }

  private primary(): Expression {
    const token = this.next();
    switch (token.type) {
      case "number":
        return { kind: "Literal", value: token.number!, start: token.start, end: token.end };
      case "bigint":
        return { kind: "Literal", value: token.bigint!, start: token.start, end: token.end };
      case "string":
        return { kind: "Literal", value: token.value, start: token.start, end: token.end };
      case "template":
        return this.template(token);
      case "name":
        return this.name(token);
      case "punct":
        if (token.value === "(") {
          if (this.is(")")) throw this.unexpected(this.peek());
          const inner = this.expression();
          const close = this.expect(")");
          (this.parenthesizedSet ??= new Set()).add(inner);
          inner.start = token.start;
          inner.end = close.end;
          return inner;
        }
        if (token.value === "[") return this.arrayLiteral(token);
        if (token.value === "{") return this.objectLiteral(token);
        if (token.value === "/" || token.value === "/=") {
          throw this.error("regular expressions are not supported", token, "unsupported");
        }
        throw this.unexpected(token);
      default:
        throw this.unexpected(token);
    }
  }

  private name(token: Token): Expression {
    switch (token.value) {
      case "true":
        return { kind: "Literal", value: true, start: token.start, end: token.end };
      case "false":
        return { kind: "Literal", value: false, start: token.start, end: token.end };
      case "null":
        return { kind: "Literal", value: null, start: token.start, end: token.end };
    }
    if (RESERVED.has(token.value)) throw this.unexpected(token);
    return { kind: "Identifier", name: token.value, start: token.start, end: token.end };
  }

  private template(head: Token): Template {
    const quasis = [head.value];
    const expressions: Expression[] = [];
    let part = head;
    while (!part.tail) {
      expressions.push(this.expression());
      part = this.next();
      if (part.type !== "template" || part.head) throw this.unexpected(part, "'}'");
      quasis.push(part.value);
    }
    return { kind: "Template", quasis, expressions, start: head.start, end: part.end };
  }

  private arrayLiteral(open: Token): Expression {
    const elements: (Expression | Spread)[] = [];
    while (!this.is("]")) {
      if (this.is(","))
        throw this.error("holes in array literals are not supported: write null", this.peek(), "unsupported");
      elements.push(this.elementOrSpread());
      if (!this.is("]")) this.expect(",");
    }
    this.next();
    return { kind: "ArrayLiteral", elements, start: open.start, end: this.end() };
  }

  private objectLiteral(open: Token): ObjectLiteral {
    const properties: ObjectLiteral["properties"] = [];
    while (!this.is("}")) {
      const token = this.peek();
      if (this.eat("...")) {
        properties.push({ kind: "Spread", argument: this.assignment(), start: token.start, end: this.end() });
      } else {
        const after = this.peek(1);
        if (
          (token.value === "get" || token.value === "set" || token.value === "async") &&
          token.type === "name" &&
          !this.is(":", after) &&
          !this.is(",", after) &&
          !this.is("}", after) &&
          !this.is("(", after) &&
          !this.is("=", after)
        ) {
          throw this.error(
            token.value === "async" ? "async methods are not supported" : "getters and setters are not supported",
            token,
            "unsupported",
          );
        }
        const key = this.objectKey();
        let value: Expression;
        let shorthand = false;
        if (this.eat(":")) value = this.assignment();
        else if (this.is("("))
          throw this.error("methods are not supported in object literals", this.peek(), "unsupported");
        else if (token.type === "name" && key.kind === "Static" && !RESERVED.has(token.value)) {
          if (this.is("=")) throw this.error("'=' is only allowed in destructuring patterns", this.peek());
          value = { kind: "Identifier", name: token.value, start: token.start, end: token.end };
          shorthand = true;
        } else throw this.unexpected(this.peek(), "':'");
        properties.push({ kind: "Property", key, value, shorthand, start: token.start, end: this.end() });
      }
      if (!this.is("}")) this.expect(",");
    }
    this.next();
    return { kind: "ObjectLiteral", properties, start: open.start, end: this.end() };
  }

  private objectKey(): PropertyKey {
    const token = this.peek();
    if (this.is("[")) return this.computedKey();
    this.next();
    if (token.type === "name" || token.type === "string") return { kind: "Static", name: token.value };
    if (token.type === "number") return { kind: "Static", name: String(token.number) };
    throw this.unexpected(token, "a property name");
  }

  private arrow(): Arrow {
    const start = this.peek();
    const params: Pattern[] = [];
    let rest: Pattern | null = null;
    if (start.type === "name") {
      params.push(this.identifier(this.next()));
    } else {
      this.expect("(");
      while (!this.is(")")) {
        if (this.eat("...")) {
          rest = this.bindingTarget();
          if (!this.is(")")) throw this.error("a rest parameter must be last", this.peek());
          break;
        }
        params.push(this.bindingElement());
        if (!this.is(")")) this.expect(",");
      }
      this.expect(")");
    }
    this.expect("=>");
    const body = this.is("{") ? this.block() : this.assignment();
    return { kind: "Arrow", params, rest, body, start: start.start, end: this.end() };
  }

  // Patterns.

  private identifier(token: Token): Identifier {
    if (token.type !== "name") throw this.unexpected(token, "a name");
    if (RESERVED.has(token.value)) throw this.unexpected(token, "a name");
    return { kind: "Identifier", name: token.value, start: token.start, end: token.end };
  }

  private bindingTarget(): Pattern {
    const token = this.peek();
    this.enter(token);
    let target: Pattern;
    if (this.is("[")) target = this.arrayPattern();
    else if (this.is("{")) target = this.objectPattern();
    else target = this.identifier(this.next());
    this.depth--;
    return target;
  }

  private bindingElement(): Pattern {
    const target = this.bindingTarget();
    if (!this.eat("=")) return target;
    const fallback = this.assignment();
    return { kind: "DefaultPattern", target, fallback, start: target.start, end: this.end() };
  }

  private arrayPattern(): ArrayPattern {
    const open = this.expect("[");
    const elements: (Pattern | null)[] = [];
    let rest: Pattern | null = null;
    while (!this.is("]")) {
      if (this.eat(",")) {
        elements.push(null);
        continue;
      }
      if (this.eat("...")) {
        rest = this.bindingTarget();
        break;
      }
      elements.push(this.bindingElement());
      if (!this.is("]")) this.expect(",");
    }
    this.expect("]");
    return { kind: "ArrayPattern", elements, rest, start: open.start, end: this.end() };
  }

  private objectPattern(): ObjectPattern {
    const open = this.expect("{");
    const properties: PatternProperty[] = [];
    let rest: Pattern | null = null;
    while (!this.is("}")) {
      const token = this.peek();
      if (this.eat("...")) {
        rest = this.identifier(this.next());
        break;
      }
      const key = this.objectKey();
      let value: Pattern;
      if (this.eat(":")) value = this.bindingElement();
      else {
        value = this.identifier(token);
        if (this.eat("=")) {
          value = {
            kind: "DefaultPattern",
            target: value,
            fallback: this.assignment(),
            start: token.start,
            end: this.end(),
          };
        }
      }
      properties.push({ key, value, start: token.start, end: this.end() });
      if (!this.is("}")) this.expect(",");
    }
    this.expect("}");
    return { kind: "ObjectPattern", properties, rest, start: open.start, end: this.end() };
  }

  /** The target of `+=` and the like, and of `++` / `--`: a name or a property. */
  private toSimpleTarget(expression: Expression): Identifier | Extract<Expression, { kind: "Member" }> {
    if ((expression.kind === "Identifier" || expression.kind === "Member") && !this.isParenthesized(expression))
      return expression;
    throw new SandboxError("syntax", "invalid assignment target", { offset: expression.start });
  }

  /** Reinterprets the left side of `=` (parsed as an expression) as a destructuring pattern. */
  private toPattern(expression: Expression): Pattern {
    switch (expression.kind) {
      case "Identifier":
      case "Member":
        return this.toSimpleTarget(expression);
      case "ArrayLiteral": {
        const elements: Pattern[] = [];
        let rest: Pattern | null = null;
        expression.elements.forEach((element, index) => {
          if (element.kind === "Spread") {
            if (index !== expression.elements.length - 1)
              throw new SandboxError("syntax", "a rest element must be last", { offset: element.start });
            rest = this.toPattern(element.argument);
          } else elements.push(this.toPatternElement(element));
        });
        return { kind: "ArrayPattern", elements, rest, start: expression.start, end: expression.end };
      }
      case "ObjectLiteral": {
        const properties: PatternProperty[] = [];
        let rest: Pattern | null = null;
        expression.properties.forEach((property, index) => {
          if (property.kind === "Spread") {
            if (index !== expression.properties.length - 1)
              throw new SandboxError("syntax", "a rest element must be last", { offset: property.start });
            rest = this.toPattern(property.argument);
          } else {
            properties.push({
              key: property.key,
              value: this.toPatternElement(property.value),
              start: property.start,
              end: property.end,
            });
          }
        });
        return { kind: "ObjectPattern", properties, rest, start: expression.start, end: expression.end };
      }
      default:
        throw new SandboxError("syntax", "invalid assignment target", { offset: expression.start });
    }
  }

  private toPatternElement(expression: Expression): Pattern {
    if (expression.kind === "Assign" && expression.operator === "=" && !this.isParenthesized(expression)) {
      return {
        kind: "DefaultPattern",
        target: expression.target,
        fallback: expression.value,
        start: expression.start,
        end: expression.end,
      };
    }
    return this.toPattern(expression);
  }
}
