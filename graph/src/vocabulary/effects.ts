/**
 * What a custom action's instruction hook may change besides its node's output, each only if the
 * action declares it (`effects`): the flags below, and `assign`, the variables it may write by
 * name. The graph records the declaration, so the compiler, `validateGraph` and the Agent read
 * one list.
 */
export const EFFECT_FLAGS = {
  /** The scope's prompt, as a set_prompt node sets it. */
  setPrompt: "the scope's prompt",
  /** The simulated user's prompt of the scope, as a set_user_prompt node sets it. */
  setUserPrompt: "the simulated user's prompt",
  /**
   * Takes the user's waiting message as read without a turn (the original's `new_user_reply=""`
   * from a node that appends no turn): later nodes do not see it as a new message.
   */
  consumeReply: "the user's message, taken as read without a turn",
} as const;

export type EffectFlag = keyof typeof EFFECT_FLAGS;
export const EFFECT_FLAG_NAMES = Object.keys(EFFECT_FLAGS) as EffectFlag[];
