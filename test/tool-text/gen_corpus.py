#!/usr/bin/env python3
"""Generate a randomized corpus of inputs and outputs of the reference ReAct functions.

Runs build_react_prompt.py (the reference implementation, verbatim) on random inputs and writes one
JSON object per line:
  {"kind": "meta", ...}                                  Python version, seed, str.isspace() set
  {"kind": "build", "history", "plugins", "prompt"}      build_input_text; "error" instead of "prompt"
  {"kind": "parse", "text", "name", "args", "rest"}      parse_latest_plugin_call
  {"kind": "dumps", "value", "json"}                     json.dumps(value, ensure_ascii=False)

JSON cannot say which Python type a value had, so values are tagged where JavaScript would lose it:
  {"$float": x}   a float that is whole, infinite or NaN (x is the number, or "nan" / "inf" / "-inf")
  {"$int": "d"}   an int beyond 2**53
  {"$map": [[k, v], ...]}   a dict whose keys JavaScript would reorder or could not hold
Lone surrogates are written as \\uXXXX escapes, so the file stays valid UTF-8.

Usage: gen_corpus.py [--seed N] [--build N] [--parse N] [--dumps N] [--out FILE|-]
"""
import argparse
import json
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_react_prompt import build_input_text, json as seed_json, parse_latest_plugin_call  # noqa: E402

# Whitespace in Python only (\x1c-\x1f, \x85), in both, in JavaScript only (\ufeff), and in neither.
SPACES = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0",
          "\u1680", "\u2000", "\u2007", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
          "\ufeff", "\u200b", "\u180e", "\r\n", "\n\n", "  "]
WORDS = ["weather", "Beijing", "search", "calculator", "image_gen", "the", "result", "is", "42",
         "天气", "北京", "查询", "café", "naïve", "e\u0301", "Ω≈ç√", "😀", "👍🏽", "\U0001d11e", "العربية",
         "x", "", "{", "}", "{}", "{name}", "$x", "`", "```", "'", '"', "\\", "\\n", "\x00", "\x07",
         "\x1b[0m", "\x7f", "\u0085", "1/2", "3.14", "null", "true", "Question:", "Final Answer:",
         "Thought:", "action", "Action", "Input", "Observation", ":", "::", "\ud800", "\udfff"]
MARKERS = ["Action:", "\nAction:", "Action Input:", "\nAction Input:", "Observation:",
           "\nObservation:", "Thought:", "\nThought:", "Final Answer:", "\nFinal Answer:",
           "action:", "Action :", "Action Input", "ACTION:", "\n\nAction:", "Action: Action Input:"]
TOOL_NAMES = ["search", "calculator", "image_gen", "amap_weather", "code_interpreter", "查询天气",
              "lookup", "web search", " padded ", "a{b}c", "x" * 40]


def words(rng, lo=0, hi=6):
    out = ""
    for _ in range(rng.randint(lo, hi)):
        out += rng.choice(WORDS) + (rng.choice(SPACES) if rng.random() < 0.3 else " ")
    return out


def odd_space(rng, hi=3):
    return "".join(rng.choice(SPACES) for _ in range(rng.randint(0, hi)))


def float_value(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice([0.0, -0.0, 1.0, 2.0, -3.0, 0.5, 0.1, 0.1 + 0.2, 1e16, 1e15, 1.5e16, 1e22,
                           1e21, 1e-4, 1e-5, 0.0001234, 123456789.123, 5e-324, 2.2250738585072014e-308,
                           1.7976931348623157e308, 9007199254740993.0, float("nan"), float("inf"),
                           float("-inf"), 100.0, 1234567890123456.7, 0.30000000000000004])
    if r < 0.5:
        return float(rng.randint(-10**6, 10**6)) * rng.choice([1, 10, 1000, 10**15, 10**17])
    if r < 0.8:
        return rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
    return rng.choice([1, -1]) * rng.random() * 10 ** rng.randint(-6, 20)


def scalar(rng):
    r = rng.random()
    if r < 0.35:
        return words(rng, 0, 4) + odd_space(rng, 1)
    if r < 0.5:
        return rng.choice([0, 1, -1, 7, 2**31, 2**53, 2**53 + 1, -2**63, 10**30, rng.randint(-10**9, 10**9)])
    if r < 0.75:
        return float_value(rng)
    if r < 0.88:
        return rng.choice([True, False])
    return None


def key(rng):
    r = rng.random()
    if r < 0.7:
        return rng.choice(["type", "properties", "name", "description", "required", "schema", "城市",
                           "enum", "items", "", " ", "a\nb", "\x1f", "😀", "$ref", "0", "1", "10", "42",
                           "-1", "01", "4294967295", "4294967294", "1.5", "__proto__", "constructor"])
    if r < 0.8:
        return rng.choice([0, 1, 5, -2, 2**53 + 1, 10**20])
    if r < 0.9:
        return float_value(rng)
    return rng.choice([True, False, None])


def value(rng, depth=0):
    r = rng.random()
    if depth >= 4 or r < 0.4:
        return scalar(rng)
    if r < 0.65:
        items = [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
        return tuple(items) if rng.random() < 0.2 else items
    return {key(rng): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def qwen_parameters(rng):
    """Parameters as real tool definitions write them: a list of argument descriptions."""
    return [{"name": rng.choice(["location", "query", "prompt", "城市"]),
             "description": words(rng, 1, 8),
             "required": rng.choice([True, False]),
             "schema": {"type": rng.choice(["string", "number", "integer"]),
                        "minimum": float_value(rng)}}
            for _ in range(rng.randint(0, 3))]


def json_schema_parameters(rng):
    props = {rng.choice(["location", "unit", "expression", "k"]): {"type": "string", "description": words(rng, 0, 5)}
             for _ in range(rng.randint(0, 3))}
    return {"type": "object", "properties": props, "required": list(props)[: rng.randint(0, len(props))]}


def parameters(rng):
    r = rng.random()
    if r < 0.3:
        return qwen_parameters(rng)
    if r < 0.55:
        return json_schema_parameters(rng)
    return value(rng)


def plugin(rng):
    p = {"name_for_model": rng.choice(TOOL_NAMES) + (rng.choice(WORDS) if rng.random() < 0.2 else ""),
         "name_for_human": words(rng, 1, 3).strip(" "),
         "description_for_model": words(rng, 0, 12) + odd_space(rng, 2),
         "parameters": parameters(rng)}
    r = rng.random()
    if r < 0.2:
        p["args_format"] = "json"
    elif r < 0.35:
        p["args_format"] = "code"
    elif r < 0.37:
        p["args_format"] = None
    elif r < 0.39:
        p["args_format"] = rng.choice(["yaml", "", "JSON", " json"])
    return p


def model_text(rng):
    """Text shaped as a model writes ReAct output, well formed or not."""
    name, args = rng.choice(TOOL_NAMES), rng.choice([
        '{"location": "北京"}', '{"query": "weather"}', "```py\nprint(1)\n```", "", words(rng, 0, 4),
        json.dumps(value(rng), ensure_ascii=False)])
    thought = "Thought: " + words(rng, 0, 8)
    sp = lambda: odd_space(rng, 2)  # noqa: E731
    shape = rng.randrange(9)
    if shape == 0:
        return f"{thought}\nAction: {sp()}{name}{sp()}\nAction Input: {sp()}{args}{sp()}\nObservation: {words(rng)}"
    if shape == 1:  # the stop word swallowed the Observation marker
        return f"{thought}\nAction: {name}\nAction Input: {args}{sp()}"
    if shape == 2:
        return f"\nAction: {name}\nAction Input: {args}\nObservation: x\nAction: {rng.choice(TOOL_NAMES)}\nAction Input: {args}{sp()}"
    if shape == 3:
        return f"{thought}\nFinal Answer: {words(rng)}"
    if shape == 4:  # several calls, each observed
        return "".join(f"{thought}\nAction: {rng.choice(TOOL_NAMES)}\nAction Input: {args}\nObservation: {words(rng)}\n"
                       for _ in range(rng.randint(2, 3))) + sp()
    if shape == 5:  # markers without their leading newline
        return f"{sp()}Action:{name}Action Input:{args}Observation:{words(rng)}{sp()}"
    if shape == 6:  # markers out of order
        return f"Action Input: {args}\nAction: {name}\nObservation: {words(rng)}"
    return "".join(rng.choice([rng.choice(MARKERS), words(rng, 0, 3), odd_space(rng), name, args])
                   for _ in range(rng.randint(0, 12)))


def history_text(rng):
    body = model_text(rng) if rng.random() < 0.3 else words(rng, 0, 10)
    return "\n" * rng.randint(0, 3) + odd_space(rng, 2) * (rng.random() < 0.3) + body + odd_space(rng)


def build_case(rng):
    plugins = [plugin(rng) for _ in range(rng.choice([0, 1, 1, 2, 3]))]
    history = [(history_text(rng), history_text(rng)) for _ in range(rng.choice([0, 1, 1, 2, 3, 4]))]
    case = {"kind": "build", "history": history, "plugins": [dict(p, parameters=tag(p["parameters"])) for p in plugins]}
    try:
        case["prompt"] = build_input_text(history, plugins)
    except NotImplementedError:
        case["error"] = "NotImplementedError"
    return case


def parse_case(rng):
    text = model_text(rng)
    name, args, rest = parse_latest_plugin_call(text)
    return {"kind": "parse", "text": text, "name": name, "args": args, "rest": rest}


def dumps_case(rng):
    v = parameters(rng) if rng.random() < 0.3 else value(rng)
    return {"kind": "dumps", "value": tag(v), "json": seed_json.dumps(v, ensure_ascii=False)}


ARRAY_INDEX = re.compile(r"^(0|[1-9][0-9]*)$")


def plain_key(k):
    """A dict key that a JavaScript object keeps as it is and in its place."""
    return isinstance(k, str) and not k.startswith("$") and not (ARRAY_INDEX.match(k) and int(k) < 2**32 - 1)


def tag(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v if abs(v) <= 2**53 else {"$int": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"$float": "nan"}
        if math.isinf(v):
            return {"$float": "inf" if v > 0 else "-inf"}
        return {"$float": v} if v.is_integer() else v
    if isinstance(v, (list, tuple)):
        return [tag(x) for x in v]
    if all(plain_key(k) for k in v):
        return {k: tag(x) for k, x in v.items()}
    return {"$map": [[tag(k), tag(x)] for k, x in v.items()]}


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def line(obj):
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    return LONE_SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--build", type=int, default=350)
    ap.add_argument("--parse", type=int, default=2000)
    ap.add_argument("--dumps", type=int, default=1200)
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    meta = {"kind": "meta", "python": sys.version.split()[0], "seed": a.seed,
            "whitespace": [c for c in range(0x110000) if chr(c).isspace()]}
    cases = [meta] + [build_case(rng) for _ in range(a.build)] + [parse_case(rng) for _ in range(a.parse)] \
        + [dumps_case(rng) for _ in range(a.dumps)]
    data = "".join(line(c) + "\n" for c in cases).encode("utf-8")
    if a.out == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(a.out, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
