import type { Visitors } from "./context.js";
import { analyzeExpression, expressionValue } from "./expressions/code.js";
import { visitBody, visitStatement, visitStatements } from "./statements/index.js";

/** The dispatchers every function's context carries (see `Visitors`). */
export const VISITORS: Visitors = {
  statements: visitStatements,
  body: visitBody,
  statement: visitStatement,
  expression: analyzeExpression,
  expressionValue,
};
