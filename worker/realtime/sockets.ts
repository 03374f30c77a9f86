import { CLOSE_CODES } from "@shared/user-channel-events";

/** Codes a peer may not send in a close frame; answering one of them would throw. */
const RESERVED_CLOSE_CODES = new Set([1004, 1005, 1006, 1015]);

const sendableCloseCode = (code: number) =>
  ((code >= 1000 && code <= 1014) || (code >= 3000 && code <= 4999)) && !RESERVED_CLOSE_CODES.has(code)
    ? code
    : CLOSE_CODES.normal;

/** Closes a socket of a Durable Object (the user channel, a chat room) without ever throwing. */
export function closeQuietly(socket: WebSocket, code: number, reason = ""): void {
  try {
    socket.close(sendableCloseCode(code), reason.slice(0, 120));
  } catch {
    // Already closed or closing: nothing left to do.
  }
}

/**
 * Sends a frame without ever blocking or throwing: workerd queues it for a slow socket; a dead one throws, and is
 * closed. Returns whether it was handed to the socket.
 */
export function sendOrClose(socket: WebSocket, frame: string): boolean {
  try {
    socket.send(frame);
    return true;
  } catch {
    closeQuietly(socket, CLOSE_CODES.internalError);
    return false;
  }
}

export const userTag = (userId: number) => `user:${userId}`;
export const sessionTag = (sessionId: number) => `session:${sessionId}`;

/** The session id an upgrade's URL carries (the socket routes put it there), or null. */
export function sessionIdOf(url: string): number | null {
  const sessionId = Number(new URL(url).searchParams.get("session"));
  return Number.isSafeInteger(sessionId) && sessionId > 0 ? sessionId : null;
}

/**
 * Closes the sockets of a Durable Object that were opened with these sessions (tagged `session:{id}`), with 4401:
 * the client stops reconnecting and asks whether it is still signed in. Returns them.
 */
export function closeSessionSockets(ctx: DurableObjectState, sessionIds: readonly number[]): WebSocket[] {
  const sockets = sessionIds.flatMap((sessionId) => ctx.getWebSockets(sessionTag(sessionId)));
  for (const socket of sockets) closeQuietly(socket, CLOSE_CODES.unauthenticated, "session ended");
  return sockets;
}

/** How many of a person's sockets (tagged `user:{id}`) are still open. */
export const openSocketsOf = (ctx: DurableObjectState, userId: number) =>
  ctx.getWebSockets(userTag(userId)).filter((socket) => socket.readyState === WebSocket.OPEN).length;
