// Algorithms with no model at all: recursion, loops and lists, compiled to a graph of code and
// transition nodes. Run a function with `autograms run samples/algorithms/agent.ts fibonacci 10`.
import { Autogram } from "@autograms/runtime";

export default class Algorithms extends Autogram {
  numbers = [6, 5, -6, 1, 14, 2000, 3, 2, 100];
  fib10 = 0;
  sorted: number[] = [];

  // main() runs both and keeps the results in the global variables; there is nothing to say.
  main() {
    this.fib10 = this.fibonacci(10);
    this.sorted = this.mergeSort(this.numbers);
  }

  // Recursion: each call is a new scope, and a call inside an expression is hoisted into its own node.
  fibonacci(n: number): number {
    if (n <= 1) {
      return n;
    }
    return this.fibonacci(n - 1) + this.fibonacci(n - 2);
  }

  // The same number with a loop, for comparison.
  fibonacciLoop(n: number): number {
    let previous = 0;
    let current = 1;
    if (n === 0) {
      return 0;
    }
    for (let i = 1; i < n; i++) {
      const next = previous + current;
      previous = current;
      current = next;
    }
    return current;
  }

  mergeSort(items: number[]): number[] {
    if (items.length <= 1) {
      return items;
    }
    const middle = Math.floor(items.length / 2);
    const left = this.mergeSort(items.slice(0, middle));
    const right = this.mergeSort(items.slice(middle));
    return this.merge(left, right);
  }

  merge(left: number[], right: number[]): number[] {
    const merged: number[] = [];
    let i = 0;
    let j = 0;
    while (i < left.length && j < right.length) {
      if (left[i] <= right[j]) {
        merged.push(left[i]);
        i += 1;
      } else {
        merged.push(right[j]);
        j += 1;
      }
    }
    // One side is used up; the rest of the other is already in order.
    for (const value of left.slice(i)) {
      merged.push(value);
    }
    for (const value of right.slice(j)) {
      merged.push(value);
    }
    return merged;
  }

  // do...while, break and continue: the first prime at or above n.
  nextPrime(n: number): number {
    let candidate = n < 2 ? 2 : n;
    do {
      let prime = true;
      for (let d = 2; d * d <= candidate; d++) {
        if (candidate % d === 0) {
          prime = false;
          break;
        }
      }
      if (prime) {
        break;
      }
      candidate += 1;
    } while (true);
    return candidate;
  }
}
