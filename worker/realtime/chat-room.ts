import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { parseFrame, TYPING_EVERY_MS } from "@shared/chat-events";
import { ChatClientFrameSchema, type ChatServerFrame } from "@shared/contracts/messages";
import { CLOSE_CODES, PING, PONG } from "@shared/user-channel-events";
import {
  closeQuietly,
  closeSessionSockets,
  openSocketsOf,
  sendOrClose,
  sessionIdOf,
  sessionTag,
  userTag,
} from "./sockets";

/** Sockets one conversation holds at once (both members' tabs and devices); a further upgrade gets 429. */
const MAX_SOCKETS_PER_ROOM = 64;

/**
 * One instance per conversation, named after its pair (`chat.{low}-{high}`, worker/domain/policies/conversations.ts).
 * It holds the members' sockets with the Hibernation API: each socket is tagged with its member's id and the
 * session that opened it, so the state survives eviction and is rebuilt from getWebSockets() and the tags; nothing
 * is kept in storage. A session's end closes its sockets (`closeSessions`, from the member's UserChannel). A block
 * between the members leaves them open: the history stays readable (docs/decisions/chat-socket-and-blocks.md). Messages
 * are stored in D1 by the API (which charges and orders them); this object delivers them, relays "typing" between
 * the members and tells one member what the other has read. A send to a dead or slow socket never blocks the
 * room: workerd queues the frame, and a socket that throws is closed.
 */
export class ChatRoom extends DurableObject<Env> {
  /** When each member last had a typing frame relayed (in memory only: losing it on eviction is harmless). */
  private lastTyping = new Map<number, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** The upgrade, forwarded by the Worker's /ws/conversations/{id} route once it checked the session and membership. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
    }
    const userId = Number(new URL(request.url).searchParams.get("user"));
    const sessionId = sessionIdOf(request.url);
    if (!Number.isSafeInteger(userId) || userId <= 0 || sessionId === null)
      return new Response("No member", { status: 400 });
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS_PER_ROOM)
      return new Response("Too many connections", { status: 429 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [userTag(userId), sessionTag(sessionId)]);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends each member their own frame (a message is presented per member); returns how many sockets it reached. */
  async deliver(frames: { userId: number; frame: ChatServerFrame }[]): Promise<number> {
    let delivered = 0;
    for (const { userId, frame } of frames) {
      const text = JSON.stringify(frame);
      for (const socket of this.ctx.getWebSockets(userTag(userId))) if (sendOrClose(socket, text)) delivered++;
    }
    return delivered;
  }

  /** Sessions of `userId` ended: their sockets close (4401). Answers how many of the member's sockets stay open. */
  async closeSessions(userId: number, sessionIds: number[]): Promise<number> {
    closeSessionSockets(this.ctx, sessionIds);
    return openSocketsOf(this.ctx, userId);
  }

  /** How many sockets are open (diagnostics and tests). */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  /** The only client frame is "typing": relayed to the other member's sockets, at most once per TYPING_EVERY_MS. */
  async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    if (data === PING) {
      sendOrClose(socket, PONG);
      return;
    }
    const frame = parseFrame(ChatClientFrameSchema, data);
    const userId = this.memberOf(socket);
    // A socket the room has closed (its session ended) says nothing more.
    if (!frame || userId === null || socket.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - (this.lastTyping.get(userId) ?? 0) < TYPING_EVERY_MS / 2) return;
    this.lastTyping.set(userId, now);
    const text = JSON.stringify({ type: "typing", userId } satisfies ChatServerFrame);
    for (const other of this.ctx.getWebSockets()) if (this.memberOf(other) !== userId) sendOrClose(other, text);
  }

  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(socket, code, reason);
  }

  async webSocketError(socket: WebSocket, error: unknown): Promise<void> {
    console.warn("chat room socket error", error);
    closeQuietly(socket, CLOSE_CODES.internalError);
  }

  private memberOf(socket: WebSocket): number | null {
    const tag = this.ctx.getTags(socket).find((t) => t.startsWith("user:"));
    return tag ? Number(tag.slice(5)) : null;
  }
}
