/**
 * The kinds of push a person turns on or off (all on until they choose): the columns of push_preferences. Apart from
 * push.ts, whose schemas the browser must not load.
 */
export const PUSH_KINDS = ["messages", "posts", "earnings", "subscriptions", "interactions", "live"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];
