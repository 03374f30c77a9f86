import { CLOSE_CODES } from "@shared/user-channel-events";

/** Codes a peer may not send in a close frame; answering one of them would throw. */
const RESERVED_CLOSE_CODES = new Set([1004, 1005, 1006, 1015]);

const sendableCloseCode = (code: number) =>
  ((code >= 1000 && code <= 1014) || (code >= 3000 && code <= 4999)) && !RESERVED_CLOSE_CODES.has(code) ? code : CLOSE_CODES.normal;

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
