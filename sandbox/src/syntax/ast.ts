/**
 * The tree of the sandbox language: only what the parser accepts exists here, so the evaluator
 * cannot meet a construct it does not know. `start` / `end` are offsets in the code text.
 */

interface Span {
  start: number;
  end: number;
}

export type LiteralValue = null | undefined | boolean | number | string | bigint;

export interface Literal extends Span {
  kind: "Literal";
  value: LiteralValue;
}
export interface Template extends Span {
  kind: "Template";
  quasis: string[];
  expressions: Expression[];
}
export interface Identifier extends Span {
  kind: "Identifier";
  name: string;
}
export interface ArrayLiteral extends Span {
  kind: "ArrayLiteral";
  elements: (Expression | Spread)[];
}
export interface ObjectLiteral extends Span {
  kind: "ObjectLiteral";
  properties: (Property | Spread)[];
}
export interface Property extends Span {
  kind: "Property";
  key: PropertyKey;
  value: Expression;
  shorthand: boolean;
}
export interface Spread extends Span {
  kind: "Spread";
  argument: Expression;
}
export interface Unary extends Span {
  kind: "Unary";
  operator: UnaryOperator;
  argument: Expression;
}
export interface Update extends Span {
  kind: "Update";
  operator: "++" | "--";
  prefix: boolean;
  target: Identifier | Member;
}
export interface Binary extends Span {
  kind: "Binary";
  operator: BinaryOperator;
  left: Expression;
  right: Expression;
}
export interface Logical extends Span {
  kind: "Logical";
  operator: "&&" | "||" | "??";
  left: Expression;
  right: Expression;
}
export interface Conditional extends Span {
  kind: "Conditional";
  test: Expression;
  consequent: Expression;
  alternate: Expression;
}
export interface Assign extends Span {
  kind: "Assign";
  operator: AssignOperator;
  target: Pattern;
  value: Expression;
}
export interface Sequence extends Span {
  kind: "Sequence";
  expressions: Expression[];
}
export interface Member extends Span {
  kind: "Member";
  object: Expression;
  key: PropertyKey;
  optional: boolean;
}
export interface Call extends Span {
  kind: "Call";
  callee: Expression;
  arguments: (Expression | Spread)[];
  optional: boolean;
}
/** Wraps a member/call chain holding `?.`: a nullish link ends the whole chain with `undefined`. */
export interface Chain extends Span {
  kind: "Chain";
  expression: Member | Call;
}
export interface Arrow extends Span {
  kind: "Arrow";
  params: Pattern[];
  rest: Pattern | null;
  body: Expression | Block;
}

/** A property name: fixed in the text, or computed (`o[k]`, `{[k]: v}`). */
export type PropertyKey = { kind: "Static"; name: string } | { kind: "Computed"; expression: Expression };

export type Expression =
  | Literal
  | Template
  | Identifier
  | ArrayLiteral
  | ObjectLiteral
  | Unary
  | Update
  | Binary
  | Logical
  | Conditional
  | Assign
  | Sequence
  | Member
  | Call
  | Chain
  | Arrow;

export type UnaryOperator = "-" | "+" | "!" | "~" | "typeof" | "void" | "delete";
export type BinaryOperator =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "**"
  | "<<"
  | ">>"
  | ">>>"
  | "&"
  | "|"
  | "^"
  | "=="
  | "!="
  | "==="
  | "!=="
  | "<"
  | ">"
  | "<="
  | ">="
  | "in";
export type AssignOperator =
  | "="
  | "+="
  | "-="
  | "*="
  | "/="
  | "%="
  | "**="
  | "<<="
  | ">>="
  | ">>>="
  | "&="
  | "|="
  | "^="
  | "&&="
  | "||="
  | "??=";

// Binding and assignment targets.
export interface ArrayPattern extends Span {
  kind: "ArrayPattern";
  elements: (Pattern | null)[];
  rest: Pattern | null;
}
export interface ObjectPattern extends Span {
  kind: "ObjectPattern";
  properties: PatternProperty[];
  rest: Pattern | null;
}
export interface PatternProperty extends Span {
  key: PropertyKey;
  value: Pattern;
}
export interface DefaultPattern extends Span {
  kind: "DefaultPattern";
  target: Pattern;
  fallback: Expression;
}
/** Declarations and parameters bind identifiers; assignments may also target members. */
export type Pattern = Identifier | Member | ArrayPattern | ObjectPattern | DefaultPattern;

// Statements: a program's top level, and block bodies of arrow functions.
export interface ExpressionStatement extends Span {
  kind: "ExpressionStatement";
  expression: Expression;
}
export interface Declaration extends Span {
  kind: "Declaration";
  declarationKind: "let" | "const" | "var";
  declarators: Declarator[];
}
export interface Declarator extends Span {
  target: Pattern;
  init: Expression | null;
}
export interface If extends Span {
  kind: "If";
  test: Expression;
  consequent: Statement;
  alternate: Statement | null;
}
export interface Block extends Span {
  kind: "Block";
  body: Statement[];
}
export interface Return extends Span {
  kind: "Return";
  argument: Expression | null;
}
export interface Throw extends Span {
  kind: "Throw";
  argument: Expression;
}
export interface Empty extends Span {
  kind: "Empty";
}

export type Statement = ExpressionStatement | Declaration | If | Block | Return | Throw | Empty;

export interface Program extends Span {
  kind: "Program";
  body: Statement[];
}
