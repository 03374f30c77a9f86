import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { CLOSE_CODES, encodeUserChannelEvent, PING, PONG, type UserChannelEvent } from "@shared/user-channel-events";
import { closeQuietly, closeSessionSockets, sendOrClose, sessionIdOf, sessionTag } from "./sockets";
import { roomStub, type RoomAddress } from "./rooms";

/** Sockets one user may hold at once (tabs, devices); a further upgrade is refused with 429. */
const MAX_SOCKETS_PER_USER = 32;
/** Rooms remembered per user (the most recently entered); an older one's sockets outlive a session's end. */
const MAX_ROOMS_PER_USER = 100;
/**
 * How long an ended session is remembered: longer than an isolate keeps a session's copy (SESSION_CACHE_SECONDS),
 * so an upgrade checked against a copy, or just before the end, is still refused here.
 */
const ENDED_REMEMBERED_MS = 60_000;

/** A room entered, and when (its latest socket). */
type RoomEntered = RoomAddress & { at: number };
type EndedSession = { id: number; at: number };
const ROOMS = "rooms";
const ENDED = "ended";

const sameRoom = (a: RoomAddress, b: RoomAddress) => a.kind === b.kind && a.name === b.name;

/**
 * One instance per user, named `updates.{userId}` (see notify.ts and the /ws/updates route in worker/app.ts).
 * Sockets are accepted with the Hibernation API: the object can leave memory while they stay open, and the
 * runtime answers "ping" with "pong" by itself, so keep-alives never wake it. The Worker checks the session
 * before forwarding an upgrade here; this object trusts that and only fans events out.
 *
 * It also keeps, in its storage, the rooms (chat, live) where the user opened sockets and the sessions that ended
 * in the last minute: a session's end closes its sockets here and in each of those rooms.
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
    const sessionId = sessionIdOf(request.url);
    if (sessionId !== null && (await this.hasEnded(sessionId)))
      return new Response("The session has ended", { status: 401 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, sessionId !== null ? [sessionTag(sessionId)] : []);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * A room has taken a socket of `sessionId` (the chat and live socket routes tell, after the room's answer): it is
   * remembered, so the session's end reaches it. False when the session has already ended: its end could not reach
   * that socket, and the route closes it.
   */
  async enteredRoom(sessionId: number, room: RoomAddress): Promise<boolean> {
    if (await this.hasEnded(sessionId)) return false;
    const rooms = (await this.ctx.storage.get<RoomEntered[]>(ROOMS)) ?? [];
    await this.ctx.storage.put(
      ROOMS,
      [...rooms.filter((kept) => !sameRoom(kept, room)), { ...room, at: Date.now() }].slice(-MAX_ROOMS_PER_USER),
    );
    return true;
  }

  private async hasEnded(sessionId: number): Promise<boolean> {
    const ended = (await this.ctx.storage.get<EndedSession[]>(ENDED)) ?? [];
    return ended.some((session) => session.id === sessionId && Date.now() - session.at < ENDED_REMEMBERED_MS);
  }

  /** Sends `event` to every open socket of the user; returns how many sockets it reached. */
  async broadcast(event: UserChannelEvent): Promise<number> {
    const frame = encodeUserChannelEvent(event);
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets()) if (sendOrClose(socket, frame)) delivered++;
    return delivered;
  }

  /**
   * Sessions of the user ended: their sockets close (code 4401: the client does not reconnect), here and in every
   * room they were entered with; the sessions are remembered a minute, against upgrades checked just before. A
   * room that has none of the user's sockets left is forgotten, unless entered again meanwhile. Returns how many
   * of this channel's sockets were closed.
   */
  async disconnectSessions(userId: number, sessionIds: number[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const now = Date.now();
    const ended = ((await this.ctx.storage.get<EndedSession[]>(ENDED)) ?? []).filter(
      (session) => now - session.at < ENDED_REMEMBERED_MS,
    );
    // Bounded by time: the sessions a user can end in a minute are few (sign-ins are rate limited).
    await this.ctx.storage.put(ENDED, [...ended, ...sessionIds.map((id) => ({ id, at: now }))]);
    const closed = closeSessionSockets(this.ctx, sessionIds).length;
    const rooms = (await this.ctx.storage.get<RoomEntered[]>(ROOMS)) ?? [];
    const left = await Promise.all(
      rooms.map((room) =>
        roomStub(this.env, room)
          .closeSessions(userId, sessionIds)
          .catch((error: unknown) => (console.warn(`closing sessions in ${room.name} failed`, error), 1)),
      ),
    );
    const emptied = rooms.filter((_, index) => left[index] === 0);
    if (emptied.length > 0) {
      const current = (await this.ctx.storage.get<RoomEntered[]>(ROOMS)) ?? [];
      await this.ctx.storage.put(
        ROOMS,
        current.filter((room) => room.at >= now || !emptied.some((gone) => sameRoom(gone, room))),
      );
    }
    return closed;
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
