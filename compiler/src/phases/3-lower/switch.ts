import { candidateName, seriesTarget } from "@autograms/graph";
import type { SwitchClause, SwitchStmt } from "../2-analyze/ir.js";
import { shortHash } from "../../hash.js";
import { TEMP_PREFIX } from "../../compiler-variables.js";
import type { LowerContext } from "./context.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

const SIMPLE_VALUE = /^([A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*|-?\d+(\.\d+)?|"[^"\\]*"|'[^'\\]*')$/;

/**
 * One `X.*` candidate per case (`value === test`), the default last; case bodies follow one
 * another in source order so that a case without break falls through as in JavaScript.
 * A case whose test needs an agent call cannot be tested with the ones before it: the
 * candidate after them goes on to the call, then to a wildcard of its own for the cases from
 * there on, so cases are still tested in order and only until one matches.
 */
export function lowerSwitch(stmt: SwitchStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, "switch", stmt.key);
  const start = new Label();
  const entry = ctx.lowerBlock(stmt.discriminant.prelude, prefix, start, ctx);
  const tested = stmt.clauses.filter((c) => c.test);
  const fallback = stmt.clauses.find((c) => !c.test);
  let value = stmt.discriminant.code;
  // Computed once, as JavaScript does, rather than once per case (nor after a case's agent call).
  const dispatch = new Label();
  if (!SIMPLE_VALUE.test(value) || tested.some((c) => c.test!.prelude.length)) {
    const temp = `${TEMP_PREFIX}${shortHash(`${ctx.fn.name}:${base}`, 6)}`;
    ctx.nodes.push({
      name: `${base}.value`,
      action: "code",
      instruction: `let ${temp} = ${value}`,
      transitions: [dispatch],
      loc: stmt.loc,
      def_type: "switch",
    });
    start.bind(`${base}.value`);
    value = temp;
  } else {
    start.bind(dispatch);
  }
  const bodies = new Map(stmt.clauses.map((c) => [c, new Label()]));
  const candidates = new Map<SwitchClause, string>();
  const testFrom = (rest: SwitchClause[], wildcard: string): Target => {
    const tests = new Label();
    const testsEntry = ctx.lowerBlock(rest[0]?.test?.prelude ?? [], wildcard, tests, ctx);
    tests.bind(seriesTarget("lettered", wildcard));
    let i = 0;
    for (; i < rest.length && (i === 0 || rest[i]!.test!.prelude.length === 0); i++) {
      const clause = rest[i]!;
      const code = clause.test!.code;
      const name = candidateName("lettered", wildcard, i);
      candidates.set(clause, name);
      pushTransition(ctx, {
        name,
        transitions: [bodies.get(clause)!],
        boolean_condition: `${value} === ${SIMPLE_VALUE.test(code) ? code : `(${code})`}`,
        loc: clause.loc,
        def_type: "switch",
      });
    }
    const last = candidateName("lettered", wildcard, i);
    if (i < rest.length) {
      const more = new Label();
      pushTransition(ctx, { name: last, transitions: [more], loc: rest[i]!.loc, def_type: "switch" });
      more.bind(testFrom(rest.slice(i), last));
    } else if (fallback) {
      candidates.set(fallback, last);
      pushTransition(ctx, { name: last, transitions: [bodies.get(fallback)!], loc: fallback.loc, def_type: "switch" });
    } else {
      pushTransition(ctx, { name: last, transitions: [next], loc: stmt.loc, def_type: "switch" });
    }
    return testsEntry;
  };
  dispatch.bind(testFrom(tested, base));
  ctx.jumps.push({ kind: "switch", labels: stmt.labels, breakTo: next });
  stmt.clauses.forEach((clause, i) => {
    const after = i + 1 < stmt.clauses.length ? bodies.get(stmt.clauses[i + 1]!)! : next;
    bodies.get(clause)!.bind(ctx.lowerBlock(clause.body, candidates.get(clause)!, after, ctx));
  });
  ctx.jumps.pop();
  return entry;
}
