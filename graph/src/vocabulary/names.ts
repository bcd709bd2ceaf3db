/** The shapes of the names the graph format holds: variables (`assign`), custom actions and their fields. */

/** A variable name: what `assign` holds, and the callable parts of the spreadsheet's `f(a, b)`. */
export const VARIABLE_NAME = "^[A-Za-z_$][A-Za-z0-9_$]*$";

/**
 * A custom action's name (what a node's `action` says) and the name of a field it declares:
 * letters, digits and `_`, not starting with a digit.
 */
export const ACTION_NAME = "^[A-Za-z_][A-Za-z0-9_]*$";
