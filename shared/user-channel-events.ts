/**
 * The per-user real-time channel (`updates.{userId}`): what travels over the socket. Shared by the Worker
 * (worker/realtime) and the browser (app/lib/user-channel.ts), so nothing here may import Worker-only modules.
 *
 * Every server frame is a JSON text frame `{"event": Name, ...payload}`. The only client frame is "ping",
 * answered "pong" by the runtime without waking the Durable Object.
 */

/**
 * Event name → payload carried next to `event`. Add an event here together with its validator in
 * `payloadValidators`; later: NewMessage { conversationId }, Typing { conversationId, userId },
 * ReadReceipt { conversationId, messageId }.
 */
export interface UserChannelEventMap {
  /** Something new for the user (a notification, a post of a followed creator…): refetch /api/updates. */
  NewUpdate: Record<never, never>;
}

export type UserChannelEventName = keyof UserChannelEventMap;

/** One event as sent on the wire: a discriminated union on `event`. */
export type UserChannelEvent = {
  [Name in UserChannelEventName]: { event: Name } & UserChannelEventMap[Name];
}[UserChannelEventName];

/** The channel's name; the Worker addresses the user's Durable Object with `idFromName(userChannelName(id))`. */
export const userChannelName = (userId: number) => `updates.${userId}`;

/** Where the browser opens the socket; the session (cookie or Bearer) decides whose channel it is. */
export const USER_CHANNEL_PATH = "/ws/updates";

/** Keep-alive: the client sends PING, the runtime answers PONG. */
export const PING = "ping";
export const PONG = "pong";

/**
 * Close codes with a meaning for the client. AUTH and POLICY mean "do not reconnect" (signed out, refused);
 * anything else is a transient loss and the client reconnects with backoff.
 */
export const CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  internalError: 1011,
  /** Closed by the client: a ping went unanswered, the connection is presumed dead. */
  noPong: 4000,
  /** The session ended (sign-out, password reset): sign in again before reconnecting. */
  unauthenticated: 4401,
  /** Refused for good (for example another origin). */
  forbidden: 4403,
} as const;

type Payload = Record<string, unknown>;

/** Checks an event's payload fields; returns the cleaned payload or null. */
const payloadValidators: { [Name in UserChannelEventName]: (payload: Payload) => UserChannelEventMap[Name] | null } = {
  NewUpdate: () => ({}),
};

const isEventName = (name: unknown): name is UserChannelEventName =>
  typeof name === "string" && Object.prototype.hasOwnProperty.call(payloadValidators, name);

/** Validates an already-parsed value; junk (unknown event, wrong payload, not an object) gives null. */
export function toUserChannelEvent(value: unknown): UserChannelEvent | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { event, ...payload } = value as Payload;
  if (!isEventName(event)) return null;
  const checked = payloadValidators[event](payload);
  return checked ? ({ ...checked, event } as UserChannelEvent) : null;
}

/** Parses one incoming frame; anything that is not a valid event's JSON text (binary, "pong", junk) gives null. */
export function parseUserChannelFrame(data: unknown): UserChannelEvent | null {
  if (typeof data !== "string" || data.length > 64 * 1024 || !data.startsWith("{")) return null;
  try {
    return toUserChannelEvent(JSON.parse(data));
  } catch {
    return null;
  }
}

export const encodeUserChannelEvent = (event: UserChannelEvent): string => JSON.stringify(event);
