// How deep a server's schema nests, measured without recursion: a schema thousands of levels deep
// would overflow the stack of whatever walks it recursively (copying, freezing, compiling it).

/** Whether `value` has objects or arrays nested more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
