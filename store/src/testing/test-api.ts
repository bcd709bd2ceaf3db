/**
 * The test runner's functions the shared suite is given (vitest's or Jest's), typed by what the
 * suite uses, so that the store package depends on no test runner.
 */
export interface TestApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<unknown> | void, timeout?: number): void;
  expect: Expect;
}

export interface Expect {
  (actual: unknown): Assertion;
  stringContaining(expected: string): unknown;
  stringMatching(expected: string | RegExp): unknown;
}

export interface Assertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toContain(item: unknown): void;
  toMatch(expected: string | RegExp): void;
  toHaveLength(length: number): void;
  toBeNull(): void;
  toBeInstanceOf(expected: abstract new (...args: never[]) => unknown): void;
  toBeGreaterThan(expected: number | bigint): void;
  toBeGreaterThanOrEqual(expected: number | bigint): void;
  toBeLessThanOrEqual(expected: number | bigint): void;
  not: Assertion;
  rejects: { toMatchObject(expected: object): Promise<void> };
}
