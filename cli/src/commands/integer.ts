import { InvalidArgumentError } from "commander";

/** An option's value as a whole number of at least `min` (commander reports anything else as a usage error). */
export const integer =
  (min: number) =>
  (text: string): number => {
    const n = Number(text);
    if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return n;
  };
