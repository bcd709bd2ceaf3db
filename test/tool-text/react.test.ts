import {
  buildReactPrompt,
  parseLatestPluginCall,
  pythonJsonDumps,
  pythonFloatRepr,
  PyFloat,
  UnsupportedArgsFormatError,
  type PluginInfo,
} from "../../runtime/src/tool-text/index.js";
import { describe, expect, it } from "vitest";

const weather: PluginInfo = {
  name_for_model: "amap_weather",
  name_for_human: "天气查询",
  description_for_model: "Look up the weather of a city.",
  parameters: [{ name: "location", description: "城市", required: true, schema: { type: "string" } }],
};

describe("buildReactPrompt", () => {
  it("puts the tool details into the only turn, with Python's JSON of the parameters", () => {
    const prompt = buildReactPrompt([["\n\nWhat is the weather in 北京?\u3000", ""]], [weather]);
    expect(prompt).toContain(
      "amap_weather: Call this tool to interact with the 天气查询 API. What is the 天气查询 API useful for? " +
        'Look up the weather of a city. Parameters: [{"name": "location", "description": "城市", "required": true, ' +
        '"schema": {"type": "string"}}] Format the arguments as a JSON object.',
    );
    expect(prompt).toContain("Action: the action to take, should be one of [amap_weather]");
    // The query's leading newlines survive: they are inside the template when it is stripped.
    expect(prompt.endsWith("Question: \n\nWhat is the weather in 北京?<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("puts the tool details into the second-to-last turn of a longer history", () => {
    const prompt = buildReactPrompt(
      [
        ["one", "a"],
        ["two", "b"],
        ["three", ""],
      ],
      [weather],
    );
    expect(prompt.split("Answer the following questions").length).toBe(2);
    expect(prompt).toContain("Begin!\n\nQuestion: two<|im_end|>");
    expect(prompt).toContain("<|im_start|>user\none<|im_end|>");
  });

  it("strips only newlines in front and Python whitespace behind (\\x1c and \\x85 go, \\ufeff stays)", () => {
    expect(buildReactPrompt([[" \n q\x1c\x85", "\ufeffr \n"]], [])).toBe(
      "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n \n q<|im_end|>\n<|im_start|>assistant\n\ufeffr",
    );
  });

  it("describes code tools and refuses any other args_format, as the reference does", () => {
    expect(buildReactPrompt([], [{ ...weather, args_format: "code" }])).toBe(
      "<|im_start|>system\nYou are a helpful assistant.<|im_end|>",
    );
    expect(buildReactPrompt([["q", ""]], [{ ...weather, args_format: "code" }])).toContain(
      " Enclose the code within triple backticks (`) at the beginning and end of the code.",
    );
    expect(() => buildReactPrompt([], [{ ...weather, args_format: "yaml" }])).toThrow(
      new UnsupportedArgsFormatError("amap_weather", "yaml"),
    );
    expect(() => buildReactPrompt([], [{ ...weather, args_format: null }])).toThrow(
      /args_format null is not supported/,
    );
  });
});

describe("parseLatestPluginCall", () => {
  it("finds the call and cuts the text at its Observation", () => {
    const text = 'Thought: look it up\nAction: amap_weather\nAction Input: {"location": "北京"}\nObservation: sunny';
    expect(parseLatestPluginCall(text)).toEqual({
      name: "amap_weather",
      args: '{"location": "北京"}',
      text: 'Thought: look it up\nAction: amap_weather\nAction Input: {"location": "北京"}',
    });
  });

  it("puts back an Observation marker that the stop word swallowed", () => {
    expect(parseLatestPluginCall("Action: calc\nAction Input: 1+1 \x1f\n")).toEqual({
      name: "calc",
      args: "1+1",
      text: "Action: calc\nAction Input: 1+1",
    });
  });

  it("returns no call when there is none, and the text untouched", () => {
    expect(parseLatestPluginCall("Thought: done\nFinal Answer: 2")).toEqual({
      name: "",
      args: "",
      text: "Thought: done\nFinal Answer: 2",
    });
    expect(parseLatestPluginCall("Action Input: x\nAction: calc")).toEqual({
      name: "",
      args: "",
      text: "Action Input: x\nAction: calc",
    });
  });

  it("reads from the first Action unless the text opens with one, then from the last", () => {
    const two = "Action: a\nAction Input: 1\nObservation: r\nAction: b\nAction Input: 2\nObservation:";
    expect(parseLatestPluginCall(two).name).toBe("a\nAction Input: 1\nObservation: r\nAction: b");
    expect(parseLatestPluginCall(`\n${two}`).name).toBe("b");
  });
});

describe("pythonJsonDumps", () => {
  it("writes floats as Python's repr does", () => {
    expect(
      [0.1 + 0.2, 1e16, 1.5e16, 1e15 + 0.5, 1e-4, 1e-5, 5e-324, 1.7976931348623157e308, -0.5].map(pythonFloatRepr),
    ).toEqual([
      "0.30000000000000004",
      "1e+16",
      "1.5e+16",
      "1000000000000000.5",
      "0.0001",
      "1e-05",
      "5e-324",
      "1.7976931348623157e+308",
      "-0.5",
    ]);
    expect(pythonJsonDumps([new PyFloat(1), new PyFloat(-0), new PyFloat(1e22), NaN, -Infinity, 1e22, 2n ** 70n])).toBe(
      "[1.0, -0.0, 1e+22, NaN, -Infinity, 10000000000000000000000, 1180591620717411303424]",
    );
  });

  it("keeps a Map's key order and writes its non-string keys as Python does", () => {
    const m = new Map<unknown, unknown>([
      ["b", 1],
      ["1", 2],
      [2, 3],
      [new PyFloat(2), 4],
      [true, null],
      [null, false],
    ]);
    expect(pythonJsonDumps(m)).toBe('{"b": 1, "1": 2, "2": 3, "2.0": 4, "true": null, "null": false}');
  });

  it("escapes only quotes, backslashes and C0 controls", () => {
    expect(pythonJsonDumps('"\\\n\x00\x1f\x7f\u2028é😀')).toBe('"\\"\\\\\\n\\u0000\\u001f\x7f\u2028é😀"');
  });

  it("refuses what Python's json refuses", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(() => pythonJsonDumps(cyclic)).toThrow("Circular reference detected");
    expect(() => pythonJsonDumps({ when: new Date(0) })).toThrow(
      new TypeError("Object of type Date is not JSON serializable"),
    );
    expect(() => pythonJsonDumps(new Map([[[1], 1]]))).toThrow(/keys must be str, int, float, bool or None, not Array/);
    expect(() => pythonJsonDumps([undefined])).toThrow(TypeError);
    expect(pythonJsonDumps({ a: undefined, b: [] })).toBe('{"b": []}');
  });
});
