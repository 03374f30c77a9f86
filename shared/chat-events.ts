import type { Shape } from "./shape";

/**
 * The sockets' shared parts: every frame both ways is a JSON text frame, checked on arrival. The ChatRoom socket's
 * frames (one Durable Object per conversation, worker/realtime/chat-room.ts) are described in
 * shared/contracts/messages.ts; the browser checks them with the generated checks of
 * app/components/messages/chat-shapes.ts, the Worker with zod.
 */

/**
 * Parses a frame with a zod schema or a page's check; null for anything that is not valid JSON of that form.
 */
export function parseFrame<T>(
  check: Shape<T> | { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  text: unknown,
): T | null {
  if (typeof text !== "string" || text.length > 64 * 1024) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof check === "function") return check(value);
    const result = check.safeParse(value);
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
