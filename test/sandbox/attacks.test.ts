import { describe, expect, test } from "vitest";
import { evaluate, evaluateAsync, SandboxError } from "@autograms/runtime";
import { attempt, expectPlainData, expectRealmUntouched, refused, snapshotRealm } from "./realm.js";

/**
 * Real escape attempts, by category. Each runs through `attempt`, which fails the test if the
 * realm (built-in prototypes, constructors, globals) changed, if the input changed, or if
 * anything other than plain data or a SandboxError came back.
 */

const pollutionProbe = () => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
};

describe("prototype pollution", () => {
  test.each([
    "({}).__proto__.polluted = 1",
    "o.__proto__.polluted = 1",
    "o['__proto__']['polluted'] = 1",
    "const k = '__pro' + 'to__'; o[k].polluted = 1",
    "o[`__${'proto'}__`].polluted = 1",
    "xs.constructor.prototype.polluted = 1",
    "o['constructor']['prototype']['polluted'] = 1",
    "[]['__proto__']['push'] = 1",
    "Object.fromEntries([['__proto__', { polluted: 1 }]])",
    "({ __proto__: { polluted: 1 } })",
    "({ ['__proto__']: { polluted: 1 } })",
    "const { __proto__: p } = o; p.polluted = 1",
    "Object.assign(Object.prototype, { polluted: 1 })",
    "Object.setPrototypeOf(o, { polluted: 1 })",
  ])("%s", (code) => {
    const error = refused(code, undefined, { o: { a: 1 }, xs: [1] });
    expect(["unsupported", "type"]).toContain(error.kind);
    pollutionProbe();
  });

  test("a __proto__ key in data stays data, on the way in and out", () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const { result } = attempt("const copy = { ...o, b: 2 }; JSON.parse(JSON.stringify(copy))", { o: data });
    expect(Object.getPrototypeOf(result!.value)).toBe(Object.prototype);
    expect(Object.hasOwn(result!.value as object, "__proto__")).toBe(true);
    expect((result!.value as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result!.variables.copy)).toBe(Object.prototype);
    pollutionProbe();
  });

  test("a variable named __proto__ cannot be written, even through the $name spelling", () => {
    const variables = JSON.parse('{"__proto__": {"polluted": true}}');
    refused("let __proto__ = { polluted: 1 }", "unsupported");
    const { result } = attempt("$__proto__ = { polluted: 1 }", variables);
    expect(Object.getPrototypeOf(result!.variables)).toBe(Object.prototype);
    expect((result!.variables as Record<string, unknown>).polluted).toBeUndefined();
    pollutionProbe();
  });

  test("JSON.parse output has no prototype to pollute", () => {
    const { result } = attempt('const p = JSON.parse(\'{"__proto__": {"polluted": 1}}\'); p.polluted');
    expect(result!.value).toBeUndefined();
    refused('JSON.parse(\'{"__proto__": {"x": 1}}\').__proto__.polluted = 1', "unsupported");
    pollutionProbe();
  });
});

describe("constructor escapes", () => {
  test.each([
    "''.constructor.constructor('return process')()",
    "[].map.constructor('return this')()",
    "xs.map['constructor']",
    "(0).constructor",
    "true.constructor",
    "Math.constructor",
    "JSON['constructor']",
    "Object.constructor('return process')()",
    "''[String.fromCharCode(99, 111, 110, 115, 116, 114, 117, 99, 116, 111, 114)]",
    "[]['con' + 'structor']",
    "[]['constr'.concat('uctor')]['constr'.concat('uctor')]('return this')()",
    "new Function('return process')()",
    "Function('return this')()",
    "(() => 1).constructor",
    "xs.map(x => x).constructor",
    "xs.find(x => x).constructor",
    "String.prototype",
    "Object.getPrototypeOf(xs)",
    "Array.prototype.slice",
  ])("%s", (code) => {
    refused(code, undefined, { xs: [1] });
  });

  test("arrays and objects are not property keys", () => {
    expect(refused("[][['constructor']]").kind).toBe("type");
    expect(refused("o[{ toString: 'constructor' }]", "type", { o: {} }).message).toMatch(/string or an integer/);
    expect(refused("o[null]", "type", { o: {} }).kind).toBe("type");
  });
});

describe("reaching globals", () => {
  test.each([
    "this",
    "globalThis",
    "global",
    "window",
    "self",
    "process",
    "process.env",
    "require('fs')",
    "import('fs')",
    "eval('1')",
    "module.exports",
    "arguments",
    "Buffer.from('x')",
    "setTimeout('1')",
    "console.table(1)",
    "console",
    "console.log.call(null, 1)",
    "console['log'](1)",
    "__dirname",
    "fetch('http://localhost')",
    "WebAssembly",
    "Reflect.ownKeys({})",
    "Symbol.iterator",
    "Proxy",
    "new Proxy({}, {})",
    "Promise.resolve(1)",
    "Error.prepareStackTrace = 1",
    "1; process.exit()",
    "with (o) { x }",
    "Date",
    "new Date()",
    "Date.parse('1')",
    "Date.now.constructor",
    "performance.now()",
    "structuredClone({})",
    "Intl",
  ])("%s", (code) => {
    const error = refused(code, undefined, { o: {} });
    expect(["reference", "unsupported", "syntax", "type"]).toContain(error.kind);
  });

  test("dangerous names hold nothing but the agent's own data", () => {
    const { result } = attempt("process.env.HOME + require", {
      process: { env: { HOME: "/home/agent" } },
      require: "!",
    });
    expect(result!.value).toBe("/home/agent!");
  });
});

describe("coercion hooks are plain data", () => {
  test.each([
    ["({ valueOf: 'x', toString: 'y' }) + 1", "[object Object]1"],
    ["o + ''", "[object Object]"],
    ["String(o)", "[object Object]"],
    ["`${o}`", "[object Object]"],
    ["o == '[object Object]'", true],
    ["o > 0", false],
    ["JSON.stringify(o)", '{"valueOf":1,"toString":"x","toJSON":"y","then":2}'],
    ["[o].join()", "[object Object]"],
    ["xs.sort().length", 2],
  ])("%s", (code, expected) => {
    const { result } = attempt(code, {
      o: { valueOf: 1, toString: "x", toJSON: "y", then: 2 },
      xs: [{ toString: "b" }, { toString: "a" }],
    });
    expect(result!.value).toEqual(expected);
  });

  test("Symbol.toPrimitive cannot be named", () => {
    refused("({ [Symbol.toPrimitive]: 1 }) + 1", "reference");
  });

  test("a thenable value is returned as data, never resolved", async () => {
    const before = snapshotRealm();
    const evaluation = await evaluateAsync("({ then: 'x', value: 1 })", {});
    expect(evaluation.value).toEqual({ then: "x", value: 1 });
    expectRealmUntouched(before);
  });
});

describe("getters, setters, Proxy and Reflect", () => {
  test.each([
    "({ get x() { return 1 } })",
    "({ set x(v) {} })",
    "o.__defineGetter__('x', 1)",
    "o.__lookupGetter__('x')",
    "Object.defineProperty(o, 'x', { get: 1 })",
    "Object.getOwnPropertyDescriptor(o, 'x')",
    "new Proxy(o, {})",
    "Reflect.get(o, 'x')",
    "Reflect.construct(Array, [])",
  ])("%s", (code) => {
    refused(code, undefined, { o: { x: 1 } });
  });
});

describe("promise tricks", () => {
  test.each([
    "xs.map(async x => x)",
    "async () => 1",
    "await x",
    "Promise.resolve().then(x => x)",
    "import('fs').then(m => m)",
    "(function* () {})()",
  ])("%s", (code) => {
    refused(code, undefined, { xs: [1], x: 1 });
  });

  test("a tool's promise in a synchronous evaluation is refused, and its rejection handled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const error = refused("later()", "host", {}, { functions: { later: () => Promise.reject(new Error("boom")) } });
      expect(error.message).toMatch(/evaluateAsync/);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  test("a tool's thenable that resolves to a host object is refused", async () => {
    const before = snapshotRealm();
    const tools = {
      sneaky: () => ({ then: (resolve: (value: unknown) => void) => resolve(globalThis) }),
      fn: () => () => 1,
      date: () => new Date(),
      cycle: () => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      },
      getter: () => ({
        get x() {
          return process;
        },
      }),
    };
    for (const name of Object.keys(tools)) {
      const error = await evaluateAsync(`${name}()`, {}, { functions: tools }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).kind, name).toBe("host");
    }
    expectRealmUntouched(before);
  });
});

describe("error-stack tricks", () => {
  test.each([
    "Error.prepareStackTrace = (e, s) => s",
    "Error.captureStackTrace(o)",
    "throw o",
    "try { null.x } catch (e) { e.stack }",
    "null.x",
    "JSON.parse('{')",
    "'x'.repeat(-1)",
  ])("%s", (code) => {
    const error = refused(code, undefined, { o: { message: "m", stack: "s" } });
    expect(error.stack).not.toMatch(/node_modules|\.ts:|\.js:|node:internal/);
  });

  test("a thrown value becomes a message only", () => {
    const error = refused("throw { message: 'custom failure', detail: 1 }", "thrown");
    expect(error.message).toBe("custom failure");
    expect(Object.keys(error)).not.toContain("detail");
  });

  test("a tool's error keeps its message and loses its stack", () => {
    const error = refused(
      "lookup(1)",
      "host",
      {},
      {
        functions: {
          lookup: () => {
            throw new Error("no such record");
          },
        },
      },
    );
    expect(error.message).toBe("the tool 'lookup' failed: no such record");
    expect(error.stack).not.toMatch(/attacks\.test/);
  });
});

describe("unicode escapes and computed keys", () => {
  test.each([
    "\\u0063onstructor",
    "''.\\u0063onstructor",
    "''['\\u0063onstructor']",
    "''['\\x63onstructor']",
    "''['\\u{63}onstructor']",
    "o['__\\u0070roto__']",
    "o[String.fromCharCode(95, 95, 112, 114, 111, 116, 111, 95, 95)]",
    "o[String.fromCodePoint(0x70, 0x72, 0x6f, 0x74, 0x6f, 0x74, 0x79, 0x70, 0x65)]",
    "o[['__proto__']]",
    "o[`${'con'}structor`]",
    "o['constructor'.normalize('NFC')]",
    "o[JSON.parse('\"constructor\"')]",
    "o[' constructor'.trim()]",
  ])("%s", (code) => {
    refused(code, undefined, { o: {} });
  });

  test("look-alike names are just other names", () => {
    const { result } = attempt("''['сonstructor']");
    expect(result!.value).toBeUndefined();
  });
});

describe("payloads an AutoGRAMS (Python) author would type", () => {
  test.each([
    "__import__('os').system('ls')",
    "().__class__.__bases__[0].__subclasses__()",
    "''.__class__.__mro__[1].__subclasses__()",
    "open('/etc/passwd').read()",
    "exec('import os')",
    "globals()",
    "getattr(x, 'y')",
    "lambda: 1",
    "[x for x in range(10)]",
    "import os",
  ])("%s", (code) => {
    refused(code, undefined, { x: 1 });
  });

  test("string times a huge number is NaN in JavaScript, and NaN is not stored", () => {
    const outcome = attempt("'a' * (20 ** 20)");
    expect(outcome.error?.message).toMatch(/NaN/);
    const stored = attempt("x = 'a' * 20 ** 20", { x: 1 });
    expect(stored.error?.kind).toBe("type");
  });

  test("exponent towers are bounded", () => {
    expect(refused("10n ** 10n ** 10n", "limit").limit).toBe("maxBigIntBits");
    expect(refused("2 ** 10 ** 10").message).toMatch(/Infinity/);
  });
});

test("what a tool receives and returns is copied plain data", () => {
  const received: unknown[] = [];
  const tools = {
    keep: (value: unknown) => {
      received.push(value);
      (value as Record<string, unknown>).changed = true;
      return { echoed: value };
    },
  };
  const { result } = attempt(
    "const r = keep(o); [o.changed ?? 'unchanged', r.echoed.changed]",
    { o: { a: [1] } },
    { functions: tools },
  );
  expect(result!.value).toEqual(["unchanged", true]);
  expectPlainData(received[0]);
  expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
});

test("a function is never handed to a tool or stored", () => {
  refused("keep(x => x)", "type", {}, { functions: { keep: (v: unknown) => v } });
  refused("[].concat(x => x)", "type");
  refused("xs.reduce((a, b) => a, x => x)", "type", { xs: [1] });
  refused("const f = x => x", "unsupported");
  refused("({ f: x => x })", "unsupported");
  refused("keep", "type", {}, { functions: { keep: (v: unknown) => v } });
  refused("const m = Math.max", "type");
  refused("const s = xs.map", "type", { xs: [] });
});

test("evaluate never returns a host object, whatever the variables hold", () => {
  const before = snapshotRealm();
  const result = evaluate("[o, xs, s]", { o: { nested: { deep: [1, { x: null }] } }, xs: [true, "a"], s: "t" });
  expectPlainData(result.value);
  expectRealmUntouched(before);
});
