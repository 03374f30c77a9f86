import { object, ShapeError, type Shape } from "./shape";

/**
 * The per-user real-time channel (`updates.{userId}`): what travels over the socket. Shared by the Worker
 * (worker/realtime) and the browser (app/lib/user-channel.ts), so nothing here may import Worker-only modules.
 *
 * Every server frame is a JSON text frame `{"event": Name, ...payload}`. The only client frame is "ping",
 * answered "pong" by the runtime without waking the Durable Object.
 */

/**
 * Event name → the schema of the payload carried next to `event`: the one map both sides validate with (the
 * Worker what it sends, the browser what it receives). Add an event here. A conversation's messages, typing and
 * read marks travel on its own ChatRoom socket (shared/chat-events.ts); here a new message is a NewUpdate (the
 * badge). The schemas are shared/shape.ts checks, the page's validators (zod would not fit the first load's
 * JavaScript budget).
 */
const USER_CHANNEL_EVENTS = {
  /** Something new for the user (a notification, a post of a followed creator…): refetch /api/updates. */
  NewUpdate: object({}),
} satisfies Record<string, Shape<Record<string, unknown>>>;

type UserChannelEventName = keyof typeof USER_CHANNEL_EVENTS;

type UserChannelEventMap = { [Name in UserChannelEventName]: ReturnType<(typeof USER_CHANNEL_EVENTS)[Name]> };

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

const isEventName = (name: unknown): name is UserChannelEventName =>
  typeof name === "string" && Object.prototype.hasOwnProperty.call(USER_CHANNEL_EVENTS, name);

/** Validates an already-parsed value; junk (unknown event, wrong payload, not an object) gives null; unknown extra fields are dropped, so a newer server can add fields without breaking an open page. */
function toUserChannelEvent(value: unknown): UserChannelEvent | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { event, ...payload } = value as Record<string, unknown>;
  if (!isEventName(event)) return null;
  try {
    return { ...USER_CHANNEL_EVENTS[event](payload), event } as UserChannelEvent;
  } catch (error) {
    if (error instanceof ShapeError) return null;
    throw error;
  }
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

/** The frame for an event; one that its schema refuses is a bug of the sender and throws. */
export function encodeUserChannelEvent(event: UserChannelEvent): string {
  const { event: name, ...payload } = event;
  USER_CHANNEL_EVENTS[name](payload);
  return JSON.stringify(event);
}
