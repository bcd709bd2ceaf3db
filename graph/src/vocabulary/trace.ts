/**
 * The runtime's trace: the kinds of event a turn writes, and the variables the runtime sets itself.
 * Each is written here once; the runtime's event types, the recording reader, the debugger, node
 * coverage and the server's bound on a run's stream read these lists.
 */

/** What an event of each kind says about the step that wrote it. */
interface TraceKind {
  /** Its node ran its action (coverage counts it); the others are arrivals and departures. */
  ran: boolean;
  /** It reports the model's answer: the time spent waiting for the model is charged to it. */
  answers: boolean;
  /** The step only computes (a run's stream may leave such steps out past a bound); the others talk. */
  computes: boolean;
}

const kind = (ran: boolean, answers: boolean, computes: boolean): TraceKind => ({ ran, answers, computes });

/** Every kind of trace event, with what it says. */
export const TRACE_KINDS = {
  /** A user message arrived at the chat node the conversation was waiting at. */
  user: kind(false, false, false),
  /** One model generation (chat, chat_suffix, thought, thought_qa). */
  generate: kind(true, true, false),
  /** A text written as is (chat_exact, thought_exact). */
  exact: kind(true, false, false),
  /** A code node's code and its value. */
  code: kind(true, false, true),
  /** A node's `setup` code, run on entering it. */
  setup: kind(false, false, true),
  /** A prompt set (set_prompt, set_user_prompt). */
  prompt: kind(true, false, false),
  /** A transition node's (empty) action. */
  pass: kind(true, false, true),
  /** A function called. */
  call: kind(true, false, true),
  /** A call skipped because a `required_revisit` node was never visited. */
  skip_call: kind(true, false, true),
  /** A function's return. */
  return: kind(false, true, true),
  /** A node left for the next, as its transition decided (perhaps by the model). */
  transition: kind(false, true, true),
  /** The conversation ended. */
  quit: kind(false, true, false),
  /** A tool call and what it gave back (the wait is charged to the tool). */
  tool_call: kind(false, false, false),
  /** A custom action's hook ran (its node ran when its instruction hook did). */
  custom: kind(false, true, false),
  /** A line the node's code printed. */
  log: kind(false, false, true),
  /** The run's time, where code first read it (a replay gives it back). */
  time: kind(false, false, true),
} as const satisfies Record<string, TraceKind>;

export type TraceKindName = keyof typeof TRACE_KINDS;

/** The kinds of event whose `what` is true. */
export const traceKinds = (what: keyof TraceKind): ReadonlySet<TraceKindName> =>
  new Set((Object.keys(TRACE_KINDS) as TraceKindName[]).filter((k) => TRACE_KINDS[k][what]));

/** Every kind of trace event. */
export const TRACE_KIND_NAMES: ReadonlySet<TraceKindName> = new Set(Object.keys(TRACE_KINDS) as TraceKindName[]);

/** The prefix of the variables the runtime sets itself, which no effect may assign. */
export const AUTOMATIC_PREFIX = "_last_";

/** The variables the runtime sets in every scope (agents read them as `this._last_user_reply`, ...). */
export const AUTOMATIC_VARIABLES = {
  /** The user's latest message. */
  userReply: "_last_user_reply",
  /** The output of the node that ran last. */
  output: "_last_variable_output",
  /** The name of the node that ran last. */
  state: "_last_state",
} as const satisfies Record<string, `${typeof AUTOMATIC_PREFIX}${string}`>;

/** Their names, for the compiler's check that an agent does not declare or assign one. */
export const AUTOMATIC_VARIABLE_NAMES: ReadonlySet<string> = new Set(Object.values(AUTOMATIC_VARIABLES));

export const LAST_USER_REPLY = AUTOMATIC_VARIABLES.userReply;
export const LAST_OUTPUT = AUTOMATIC_VARIABLES.output;
export const LAST_STATE = AUTOMATIC_VARIABLES.state;
