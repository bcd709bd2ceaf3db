/**
 * Prefixes of the variables the compiler introduces (hoisted values, loop counters): the phases
 * name them, and the pictures recognise them in a graph to show what they hold instead.
 */
export const TEMP_PREFIX = "_tmp_";
export const LOOP_PREFIX = "_loop_";
