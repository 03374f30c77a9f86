import { z } from "zod/mini";
import type { MessageView } from "./contracts/messages";

/**
 * The ChatRoom socket (one Durable Object per conversation, worker/realtime/chat-room.ts): every frame both ways
 * is a JSON text frame validated with these schemas, on the Worker and in the browser alike (zod/mini: the chat
 * screen's own chunk, never the first load). Keep-alive is the user channel's "ping"/"pong".
 */

const chatMedia = z.object({
  id: z.number(),
  kind: z.enum(["image", "video"]),
  url: z.nullable(z.string()),
  posterUrl: z.nullable(z.string()),
  previewUrl: z.nullable(z.string()),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  // Absent in messages stored before photos had copies (offline copies): none.
  scaled: z._default(z.array(z.object({ width: z.number(), url: z.string() })), () => []),
});

export const messageViewSchema = z.object({
  id: z.number(),
  conversationId: z.number(),
  seq: z.number(),
  clientId: z.string(),
  senderId: z.number(),
  text: z.string(),
  createdAt: z.string(),
  priceCents: z.number(),
  paidCents: z.number(),
  tipCents: z.number(),
  locked: z.boolean(),
  purchased: z.boolean(),
  media: z.array(chatMedia),
});

/** Server → browser. */
export const chatServerFrame = z.discriminatedUnion("type", [
  /** A new message, presented for the socket's member (a locked message's media are previews only). */
  z.object({ type: z.literal("message"), message: messageViewSchema }),
  /** The other member is typing (shown for a few seconds). */
  z.object({ type: z.literal("typing"), userId: z.number() }),
  /** A member has read up to `seq`: "Seen". */
  z.object({ type: z.literal("read"), userId: z.number(), seq: z.number() }),
  /** A pay-per-view message was bought: the sender's screen marks it sold, the buyer's opens it. */
  z.object({ type: z.literal("unlocked"), messageId: z.number(), message: messageViewSchema }),
]);

/** Browser → server: only "typing" (sends go through the API, which charges, stores and orders them). */
export const chatClientFrame = z.discriminatedUnion("type", [z.object({ type: z.literal("typing") })]);

export type ChatServerFrame = z.infer<typeof chatServerFrame>;
export type ChatClientFrame = z.infer<typeof chatClientFrame>;

// The socket's schema and the API's contract describe one message.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const messageViewMatchesContract: Same<z.infer<typeof messageViewSchema>, MessageView> = true;
void messageViewMatchesContract;

/** Parses a frame; null for anything that is not valid JSON of the schema. */
export function parseFrame<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  text: unknown,
): T | null {
  if (typeof text !== "string" || text.length > 64 * 1024) return null;
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** Where the browser opens a conversation's socket: /ws/conversations/{id}. */
export const chatSocketPath = (conversationId: number) => `/ws/conversations/${conversationId}`;

/** How long "typing…" stays after the last typing frame, and how often a client sends one while typing. */
export const TYPING_SHOWN_MS = 4000;
export const TYPING_EVERY_MS = 1500;
