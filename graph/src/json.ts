/**
 * A JSON value: what variables, node outputs and graph fields hold. It sits below every other
 * module (the sandbox, memory, the graph format all speak it), so none of them imports another
 * for it.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
