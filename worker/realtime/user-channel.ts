import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { CLOSE_CODES, encodeUserChannelEvent, PING, PONG, type UserChannelEvent } from "@shared/user-channel-events";
import { closeQuietly, sendOrClose } from "./sockets";

/** Sockets one user may hold at once (tabs, devices); a further upgrade is refused with 429. */
export const MAX_SOCKETS_PER_USER = 32;


const sessionTag = (sessionId: number) => `session:${sessionId}`;

/**
 * One instance per user, named `updates.{userId}` (see notify.ts and the /ws/updates route in worker/app.ts).
 * Sockets are accepted with the Hibernation API: the object can leave memory while they stay open, and the
 * runtime answers "ping" with "pong" by itself, so keep-alives never wake it. The Worker checks the session
 * before forwarding an upgrade here; this object trusts that and only fans events out.
 */
export class UserChannel extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** The upgrade, forwarded by the Worker's /ws/updates route after it checked the session and origin. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
    }
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS_PER_USER) {
      return new Response("Too many connections", { status: 429 });
    }
    const sessionId = Number(new URL(request.url).searchParams.get("session"));
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, Number.isSafeInteger(sessionId) && sessionId > 0 ? [sessionTag(sessionId)] : []);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends `event` to every open socket of the user; returns how many sockets it reached. */
  async broadcast(event: UserChannelEvent): Promise<number> {
    const frame = encodeUserChannelEvent(event);
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets()) if (sendOrClose(socket, frame)) delivered++;
    return delivered;
  }

  /**
   * Closes the sockets opened with one session, or every socket of the user when `sessionId` is null (code
   * 4401: the client does not reconnect). Sign-out ends one session; a password reset ends them all.
   * Returns how many were closed.
   */
  async disconnectSession(sessionId: number | null): Promise<number> {
    const sockets = sessionId === null ? this.ctx.getWebSockets() : this.ctx.getWebSockets(sessionTag(sessionId));
    for (const socket of sockets) closeQuietly(socket, CLOSE_CODES.unauthenticated, "session ended");
    return sockets.length;
  }

  /** How many sockets are open (diagnostics and tests). */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  /** Clients only send "ping", which the auto-response handles; anything else is ignored. */
  async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === PING) sendOrClose(socket, PONG);
  }

  /** The client closed: complete the closing handshake. */
  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(socket, code, reason);
  }

  async webSocketError(socket: WebSocket, error: unknown): Promise<void> {
    console.warn("user channel socket error", error);
    closeQuietly(socket, CLOSE_CODES.internalError);
  }
}
