import { describe, expect, test } from "vitest";
import { evaluate, SandboxError } from "@autograms/runtime";

/** Evaluates and checks the input was left exactly as it was. */
function run(code: string, variables: Record<string, any> = {}) {
  const before = structuredClone(variables);
  const result = evaluate(code, variables);
  expect(variables).toEqual(before);
  return result;
}

function failure(code: string, variables: Record<string, any> = {}): SandboxError {
  try {
    evaluate(code, variables);
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    return error as SandboxError;
  }
  throw new Error(`expected ${code} to fail`);
}

describe("values of expressions, with JavaScript semantics", () => {
  test.each([
    ["a + b * 2 > c", { a: 1, b: 2, c: 4 }, true],
    ["1 + '2'", {}, "12"],
    ["'3' * '4'", {}, 12],
    ["[1, 2] + [3]", {}, "1,23"],
    ["({}) + ''", {}, "[object Object]"],
    ["null ?? 'd'", {}, "d"],
    ["0 || 'x'", {}, "x"],
    ["1 === 1.0 && '1' !== 1", {}, true],
    ["null == undefined", {}, true],
    ["'10' < '9'", {}, true],
    ["[1, [2, [3]]].flat(Infinity)", {}, [1, 2, 3]],
    ["`total: ${n * 2}!`", { n: 21 }, "total: 42!"],
    ["xs.map(x => x * 2).filter(x => x > 2)", { xs: [1, 2, 3] }, [4, 6]],
    ["xs.find(u => u.age > 30)?.name ?? 'nobody'", { xs: [{ name: "ann", age: 31 }] }, "ann"],
    ["a?.b.c", { a: null }, undefined],
    ["Object.entries(o).map(([k, v]) => `${k}=${v}`).join('&')", { o: { x: 1, y: 2 } }, "x=1&y=2"],
    ["xs.reduce((sum, x) => sum + x, 0)", { xs: [1, 2, 3, 4] }, 10],
    ["[...xs].sort((a, b) => b - a)", { xs: [3, 1, 2] }, [3, 2, 1]],
    ["['b', 'a', undefined, 'c'].sort().length", {}, 4],
    ["[10, 9, 1].sort()", {}, [1, 10, 9]],
    ["typeof missing", {}, "undefined"],
    ["typeof xs", { xs: [] }, "object"],
    [
      "JSON.stringify({ a: [1, { b: 2 }], u: undefined }, null, 2)",
      {},
      '{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ]\n}',
    ],
    ["JSON.parse('{\"a\": [1, 2]}').a[1]", {}, 2],
    ["'a-b-c'.split('-')", {}, ["a", "b", "c"]],
    ["'aXbX'.replaceAll('X', '[$&]')", {}, "a[X]b[X]"],
    ["'abc'.replace('b', m => m.toUpperCase())", {}, "aBc"],
    ["Math.max(...xs, 0)", { xs: [4, 9, 2] }, 9],
    ["Array.from({ length: 3 }, (_, i) => i * i)", {}, [0, 1, 4]],
    ["String(2n ** 64n)", {}, "18446744073709551616"],
    ["$name + '!'", { name: "bob" }, "bob!"],
    ["(1, 2, 3)", {}, 3],
    ["'x'.padStart(3, '-')", {}, "--x"],
    ["Number('0x10') + parseInt('12px')", {}, 28],
    ["xs.some(x => x > 2) && xs.every(x => x > 0)", { xs: [1, 3] }, true],
    ["'k' in o && !('z' in o)", { o: { k: 1 } }, true],
    ["`https://x.org/?q=${encodeURIComponent(q)}`", { q: "a&b c/€" }, "https://x.org/?q=a%26b%20c%2F%E2%82%AC"],
    ["decodeURIComponent('a%26b%20c%2F%E2%82%AC')", {}, "a&b c/€"],
    ["encodeURI('https://x.org/a b?q=€&r=1')", {}, "https://x.org/a%20b?q=%E2%82%AC&r=1"],
    ["decodeURI('https://x.org/a%20b?q=%26')", {}, "https://x.org/a b?q=%26"],
  ])("%s", (code, variables, expected) => {
    expect(run(code, variables as Record<string, any>).value).toEqual(expected);
  });
});

// Agents build URLs for tools (a held-out agent's `encodeURIComponent(q)` in a return compiled and
// then failed); the original's python_function code could import urllib freely
// (autograms/statement_interpreter.py:18-29 at commit 243158a, dynamic_import).
describe("URI functions", () => {
  test("a text they cannot take is a range error, as JavaScript's URIError", () => {
    expect(() => run("decodeURIComponent('%E2%82')", {})).toThrow(
      /decodeURIComponent: the text is not a well-formed URI escape/,
    );
    expect(() => run("encodeURIComponent(s)", { s: "a\uD800b" })).toThrow(
      /encodeURIComponent: the text holds a lone surrogate/,
    );
  });
});

describe("statements and variables", () => {
  test("a declaration defines the variable; its value is the last initial value", () => {
    const result = run("let x = 5, y = x + 1", { x: 1 });
    expect(result.value).toBe(6);
    expect(result.variables).toEqual({ x: 5, y: 6 });
  });

  test("an assignment's value is the assigned value, and the input is not modified", () => {
    const input = { o: { k: 1, deep: { list: [1] } } };
    const result = run("o.k += 1; o.deep.list.push(2); o.k", input);
    expect(result.value).toBe(2);
    expect(result.variables.o).toEqual({ k: 2, deep: { list: [1, 2] } });
    expect(input.o).toEqual({ k: 1, deep: { list: [1] } });
  });

  test("destructuring, swaps and updates", () => {
    const result = run("[a, b] = [b, a]; const { x, y: [first] = [0], ...rest } = o; n++", {
      a: 1,
      b: 2,
      n: 1,
      o: { x: 3, z: 4 },
    });
    expect(result.value).toBe(1);
    expect(result.variables).toEqual({ a: 2, b: 1, n: 2, o: { x: 3, z: 4 }, x: 3, first: 0, rest: { z: 4 } });
  });

  test("returned variables are a fresh object and hold plain objects", () => {
    const input = { a: 1 };
    const result = run("const o = { k: [1] }", input);
    expect(result.variables).not.toBe(input);
    expect(Object.getPrototypeOf(result.variables.o)).toBe(Object.prototype);
  });

  test("assigning an unknown variable or a constant fails", () => {
    expect(failure("nope = 1").kind).toBe("reference");
    expect(failure("const c = 1; c = 2").kind).toBe("type");
  });

  test("arrow functions with block bodies", () => {
    const code = "xs.map(x => { if (x > 1) { return 'big'; } else return 'small' })";
    expect(run(code, { xs: [1, 2] }).value).toEqual(["small", "big"]);
  });

  test("a storing of a non-JSON value is refused", () => {
    for (const code of ["x = 0 / 0", "x = 2n", "x = [undefined]"]) {
      const error = failure(code, { x: 1 });
      expect(error.kind).toBe("type");
      expect(error.message).toMatch(/not JSON/);
    }
  });
});

describe("errors", () => {
  test("positions are lines and columns of the code", () => {
    const error = failure("let a = 1;\nlet b = a + missing");
    expect(error.kind).toBe("reference");
    expect(error.message).toBe("missing is not defined");
    expect([error.line, error.column]).toEqual([2, 13]);
  });

  test("syntax errors", () => {
    const error = failure("1 +");
    expect(error.kind).toBe("syntax");
    expect(error.stack).not.toMatch(/\.ts|\.js|node:/);
  });
});

test("long texts in the agent's variables are readable and changeable; only what is built is sized", () => {
  const transcript = "x".repeat(50);
  const result = evaluate("log.push('y'); log[0].length + log.length", { log: [transcript] }, { maxStringLength: 10 });
  expect(result.value).toBe(52);
  expect(() => evaluate("log[0] + '!'", { log: [transcript] }, { maxStringLength: 10 })).toThrow(/maxStringLength/);
});

describe("more statements", () => {
  test.each([
    ["o.count++; o.count", { o: { count: 1 } }, 2],
    ["delete o.a; Object.keys(o)", { o: { a: 1, b: 2 } }, ["b"]],
    ["o.f?.() ?? 'no method'", { o: {} }, "no method"],
    ["nil?.x.y.z", { nil: null }, undefined],
    ["$count += 1", { count: 1 }, 2],
    ["typeof missing + typeof Math + typeof String", {}, "undefinedobjectfunction"],
    [
      "[typeof xs.map, typeof xs.length, typeof Math.max, typeof Math.PI, typeof o.x, typeof s.trim]",
      { xs: [], o: {}, s: "" },
      ["function", "number", "function", "number", "undefined", "function"],
    ],
    ["var v = 1; v += 1; v", {}, 2],
    ["const { a = 5, b } = o; [a, b]", { o: { b: 2 } }, [5, 2]],
    ["xs.length = 1; xs", { xs: [1, 2, 3] }, [1]],
    ["xs[xs.length] = 4; xs", { xs: [1] }, [1, 4]],
    [
      "words.map(w => { const upper = w.toUpperCase(); return upper + w.length })",
      { words: ["ab", "c"] },
      ["AB2", "C1"],
    ],
    [
      "[1, 2, 3].map(x => [1, 2].map(y => x * y))",
      {},
      [
        [1, 2],
        [2, 4],
        [3, 6],
      ],
    ],
    ["const n = 1; xs.map((x, i, all) => x + n + all.length)", { xs: [10, 20] }, [13, 23]],
    ["Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toUpperCase(), v * 2]))", { o: { a: 1 } }, { A: 2 }],
    ["xs.splice(1, 1, 'a', 'b'); xs", { xs: [1, 2, 3] }, [1, "a", "b", 3]],
    ["xs.unshift(0); xs.shift(); xs.pop(); xs", { xs: [1, 2, 3] }, [1, 2]],
    ["xs.fill(0, 1); xs.reverse()", { xs: [1, 2, 3] }, [0, 0, 1]],
    ["`${xs}|${o}|${nil}|${undefined}`", { xs: [1, [2, 3]], o: {}, nil: null }, "1,2,3|[object Object]|null|undefined"],
  ])("%s", (code, variables, expected) => {
    expect(run(code, variables as Record<string, any>).value).toEqual(expected);
  });

  test("runtime type errors name what failed, where", () => {
    const error = failure("const a = 1;\nconst b = o.missing.deep", { o: {} });
    expect(error.kind).toBe("type");
    expect(error.message).toBe("cannot read properties of undefined (reading 'deep')");
    expect([error.line, error.column]).toEqual([2, 11]);
    expect(failure("xs.nope()", { xs: [] }).message).toBe("xs.nope is not a function");
    expect(failure("o.keys()", { o: { keys: [] } }).message).toBe("o.keys is not a function");
    expect(evaluate("typeof lookup", {}, { functions: { lookup: () => 1 } }).value).toBe("function");
  });
});
