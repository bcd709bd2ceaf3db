import { Autogram, func, localFunction, globalFunction } from "@autograms/runtime";

// Pure computations in every control-flow construct: the semantics test runs each method both
// as plain TypeScript and as the compiled graph, and the two must agree.
export default class Semantics extends Autogram {
  base = 10;
  log: string[] = [];

  main() {
    this.collatz(6);
  }

  collatz(n: number): number {
    let steps = 0;
    while (n !== 1) {
      if (n % 2 === 0) n = n / 2;
      else n = 3 * n + 1;
      steps++;
    }
    return steps;
  }

  primes(limit: number): number[] {
    const found: number[] = [];
    outer: for (let i = 2; found.length < limit; i++) {
      for (const p of found) {
        if (p * p > i) break;
        if (i % p === 0) continue outer;
      }
      found.push(i);
    }
    return found;
  }

  grade(score: number): string {
    let label = "";
    switch (true) {
      case score >= 90:
        label += "A";
        break;
      case score >= 80:
        label += "B";
      case score >= 70:
        label += "C";
        break;
      default:
        label = "F";
    }
    return label;
  }

  fallthrough(key: string): string[] {
    const seen: string[] = [];
    switch (key) {
      case "a":
        seen.push("a");
      case "b":
        seen.push("b");
        break;
      default:
        seen.push("default");
      case "c":
        seen.push("c");
    }
    return seen;
  }

  countdown(n: number): number[] {
    const out: number[] = [];
    do {
      out.push(n);
      n -= 2;
    } while (n > 0);
    return out;
  }

  keys(record: Record<string, number>): string {
    let text = "";
    for (const key in record) {
      if (record[key]! < 0) continue;
      text += `${key}=${record[key]};`;
    }
    return text;
  }

  pairs(items: [string, number][]): number {
    let total = 0;
    for (const [name, value] of items) {
      if (name.startsWith("skip")) continue;
      total += name.length * value;
    }
    return total;
  }

  classify(n: number): string {
    if (n < 0) return "negative";
    else if (n === 0) return "zero";
    else if (n < 10) {
      if (n % 2) return "small odd";
      return "small even";
    }
    return "large";
  }

  @localFunction fib(n: number): number {
    if (n < 2) return n;
    return this.fib(n - 1) + this.fib(n - 2);
  }

  @func scaled(x: number): number {
    return x * this.base + (x > 2 ? this.fib(x) : 0);
  }

  @globalFunction guarded(values: number[]): number[] {
    const out: number[] = [];
    for (const v of values) {
      const ok = v > 0 && this.isEven(v);
      const fallback = v ?? this.fib(3);
      out.push(ok ? this.fib(v) : fallback, v < 5 || this.fib(v) > 100 ? 1 : 0);
    }
    return out;
  }

  @localFunction isEven(v: number): boolean {
    return v % 2 === 0;
  }

  loops(n: number): number {
    let total = 0;
    block: {
      for (let i = 0, j = n; i < j; i++, j--) {
        total += i * j;
        if (total > 1000) break block;
      }
      total = -total;
    }
    let k = 0;
    for (;;) {
      k += 3;
      if (k > n) break;
    }
    return total + k;
  }

  strings(words: string[]): string {
    const sorted = [...words].sort((a, b) => a.localeCompare(b));
    const lengths = sorted.map((w) => w.length).filter((l) => l > 2);
    const { first, rest } = { first: sorted[0] ?? "", rest: sorted.slice(1) };
    return `${first}|${rest.join(",")}|${lengths.reduce((a, b) => a + b, 0)}`;
  }

  @func hoisted(n: number): number {
    let total = 0;
    let i = 0;
    while (i < n && this.isEven(i) !== this.isEven(n + 1)) {
      total += this.fib(i) * 2 + this.fib(i + 1);
      i++;
    }
    for (let k = 0; k < this.fib(n); k++) total += k;
    switch (this.fib(n) % 3) {
      case 0:
        total += 100;
        break;
      case 1:
        total += 10;
      default:
        total += 1;
    }
    return total;
  }

  nested(n: number): string {
    let kind;
    if (n > 5) kind = n > 10 ? "big" : "medium";
    else kind = n < 0 ? "negative" : n === 0 ? "zero" : "small";
    const extra = n > 3 ? this.label(n) : n < -3 ? this.label(-n) : "none";
    const named = this.maybe(n) ?? this.label(0);
    const either = this.maybe(n) || this.label(1);
    return `${kind}/${extra}/${named}/${either}`;
  }

  label(n: number): string {
    return `L${n}`;
  }

  maybe(n: number): string | null {
    return n % 2 ? `odd${n}` : null;
  }

  @globalFunction remember(items: string[]): number {
    for (const item of items) this.log.push(item.toUpperCase());
    this.base = this.base + this.log.length;
    return this.base;
  }

  // Logical assignments whose right side is an agent call: the call runs only when JavaScript runs it.
  logical(n: number): string {
    let a: string | null = n > 0 ? null : "set";
    a ??= this.label(1);
    let b = n % 2 === 0 ? "" : "odd";
    b ||= this.label(2);
    let c = n > 5 ? "big" : "";
    c &&= this.label(3);
    const box = { v: n > 3 ? 1 : 0, items: [n > 4 ? "x" : ""] };
    box.items[0] ||= this.label(4);
    const value = (box.v &&= this.fib(n)) + 1;
    return `${a}|${b}|${c}|${box.items[0]}|${box.v}|${value}`;
  }

  // Agent calls in case labels: tested in order, only until one matches; default last whatever its place.
  cases(n: number): string {
    const out: string[] = [];
    switch (n) {
      case 0:
        out.push("zero");
      case this.fib(5):
        out.push("five");
        break;
      case n > 10 ? 11 : this.fib(7):
        out.push("eleven or thirteen");
      default:
        out.push("other");
      case this.fib(4) + 1:
        out.push("four");
    }
    return out.join(",");
  }

  // Parameter defaults apply where a call leaves the argument out or passes undefined, not to null.
  defaults(n: number): string {
    return [
      this.padded(n),
      this.padded(n, 3),
      this.padded(n, undefined, "*"),
      this.padded(n, null as any, "-", []),
    ].join("|");
  }

  padded(n: number, width = 2, fill: string = "0", tags: string[] = ["t"]): string {
    return `${String(n).padStart(width ?? 0, fill)}:${width}:${tags.length}`;
  }
}
