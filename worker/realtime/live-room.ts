import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import {
  LIVE_CHAT_LINES,
  LIVE_CHAT_WINDOW_MS,
  LIVE_CLOSE,
  LIVE_SILENT_AFTER_MS,
  liveClientFrame,
  type LiveChatLine,
  type LiveServerFrame,
  type LiveTipLine,
} from "@shared/live-events";
import type { LiveEndReason } from "@shared/contracts/live-limits";
import { parseFrame } from "@shared/chat-events";
import { CLOSE_CODES, PING, PONG } from "@shared/user-channel-events";
import { translatorFor } from "../domain/i18n";
import { endLiveStream } from "../domain/live/streams";
import { message } from "@shared/messages";
import { CONTROL_CHARACTER, LONE_SURROGATE } from "@shared/contracts/text";
import { closeQuietly, closeSessionSockets, openSocketsOf, sendOrClose, sessionTag, userTag } from "./sockets";
import { createPublisher } from "../events/publisher";
import { viewersShutOut } from "../domain/policies/live";

/** Sockets one stream holds at once (its creator's and every viewer's); a further upgrade gets 429. */
const MAX_SOCKETS_PER_STREAM = 32_000;
/** Chat lines and tips kept for the stream's length; a new socket gets the last HELLO_LINES of each. */
const HELLO_LINES = 50;
/** Once ended, what the room kept (chat, tips, mutes) is deleted this much later. */
const FORGET_AFTER_MS = 60_000;

const CHAT_TOO_FAST = message("You are sending messages too fast. Wait a few seconds.");
const CHAT_MUTED = message("The creator has muted you in this chat.");
const REMOVED = message("The creator removed you from this stream.");
const SHUT_OUT = message("You can no longer watch this stream.");

/** What the Worker tells the room about a socket it authorised (GET /ws/live/{id}, worker/realtime/route.ts). */
export interface LiveSocketGuest {
  streamId: number;
  creatorId: number;
  /** p2p: the most viewers the creator's browser sends the video to (0: no cap). */
  maxViewers: number;
  userId: number;
  /** The session the socket was opened with: its end closes the socket. */
  sessionId: number;
  username: string;
  name: string;
  language: string;
}

interface Attachment {
  userId: number;
  username: string;
  name: string;
  language: string;
  role: "creator" | "viewer";
  peerId: string;
}

const ROLE_TAG = { creator: "role:creator", viewer: "role:viewer" } as const;
const peerTag = (peerId: string) => `peer:${peerId}`;

/**
 * One instance per live stream, named `live.{streamId}` (worker/domain/policies/live.ts). The Worker checks who
 * may watch (audience, entry price, blocks) before forwarding an upgrade; this room trusts that and runs the
 * stream's real time with the Hibernation API (each socket's role, person and peer id are its tags and
 * attachment, so eviction loses nothing):
 *
 * - the viewer count (distinct people on viewer sockets), pushed to everyone and written to D1 for the lists;
 * - the chat, kept in this object's SQLite for the stream's length, LIVE_CHAT_LINES per LIVE_CHAT_WINDOW_MS per
 *   person (three times that and the socket is closed); the creator mutes or removes a viewer; every frame is
 *   checked against the room's current removals and shut-outs, and a socket the room has closed says nothing more;
 * - who may still watch: a block either way shuts the viewer out at once (`shutOut`, the UserBlocked adapter), and
 *   the alarm checks every viewer's access again (a subscription that ended, a follow undone); a session's end
 *   closes its sockets (`closeSessions`, from the person's UserChannel);
 * - tips, shown once the ledger has committed them (`tip`, called by the LiveTipped adapter);
 * - p2p signalling: a viewer's arrival is told to the creator, whose browser offers it the stream; SDP and ICE
 *   candidates are relayed between the creator and one viewer only; past `maxViewers` people a viewer is told the
 *   stream is full;
 * - the heartbeat: the creator's tab says it is alive every LIVE_HEARTBEAT_MS; an alarm ends the stream (in D1
 *   too) once the creator has been silent, or gone, for LIVE_SILENT_AFTER_MS.
 */
export class LiveRoom extends DurableObject<Env> {
  private sql: SqlStorage;
  /** When each person's recent chat lines were sent (memory only: losing it on eviction is harmless). */
  private recentLines = new Map<number, number[]>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS room (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS chat (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, username TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS tips (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, username TEXT NOT NULL, name TEXT NOT NULL, amount_cents INTEGER NOT NULL, note TEXT, at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS muted (user_id INTEGER PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS removed (user_id INTEGER PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS shut_out (user_id INTEGER PRIMARY KEY);
    `);
  }

  // ── the room's few values ──

  private get(key: string): string | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM room WHERE key = ?", key).toArray()[0];
    return row ? row.value : null;
  }

  private set(key: string, value: string | number): void {
    this.sql.exec(
      "INSERT INTO room (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      String(value),
    );
  }

  private get ended(): boolean {
    return this.get("ended") !== null;
  }

  /**
   * Called when the stream starts (the LiveStarted adapter) and by every upgrade: remembers the stream and makes
   * sure the silence alarm runs even if the creator's socket never arrives.
   */
  async begin(streamId: number, creatorId: number, tipsCents = 0): Promise<void> {
    if (this.get("stream") === null) {
      this.set("stream", streamId);
      this.set("creator", creatorId);
      this.set("tipsCents", tipsCents);
      this.set("heartbeatAt", Date.now());
    }
    if ((await this.ctx.storage.getAlarm()) === null && !this.ended)
      await this.ctx.storage.setAlarm(Date.now() + LIVE_SILENT_AFTER_MS);
  }

  /** The upgrade, forwarded by the Worker once it checked the session and access; the guest rides in the URL. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
    }
    const guest = JSON.parse(new URL(request.url).searchParams.get("guest") ?? "null") as LiveSocketGuest | null;
    if (!guest) return new Response("No guest", { status: 400 });
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS_PER_STREAM)
      return new Response("Too many connections", { status: 429 });
    await this.begin(guest.streamId, guest.creatorId);
    const role = guest.userId === guest.creatorId ? "creator" : "viewer";
    const peerId = crypto.randomUUID();
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [
      userTag(guest.userId),
      ROLE_TAG[role],
      peerTag(peerId),
      sessionTag(guest.sessionId),
    ]);
    const attachment: Attachment = {
      userId: guest.userId,
      username: guest.username,
      name: guest.name,
      language: guest.language,
      role,
      peerId,
    };
    server.serializeAttachment(attachment);
    const t = translatorFor(guest.language);
    // Refusals travel as a close with a reason, which the page shows.
    if (this.ended) {
      closeQuietly(server, LIVE_CLOSE.ended, t("This stream has ended"));
    } else if (role === "viewer" && this.isRemoved(guest.userId)) {
      closeQuietly(server, LIVE_CLOSE.removed, t(REMOVED));
    } else if (role === "viewer" && this.isFullFor(guest, server)) {
      closeQuietly(server, LIVE_CLOSE.full, t("This stream is full. Try again later."));
    } else {
      // The Worker has just found that they may watch (unblocked, subscribed again): no longer shut out.
      this.sql.exec("DELETE FROM shut_out WHERE user_id = ?", guest.userId);
      this.welcome(server, attachment);
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /** p2p: the creator's browser sends the video to at most `maxViewers` people; another tab of one of them is fine. */
  private isFullFor(guest: LiveSocketGuest, socket: WebSocket): boolean {
    if (guest.maxViewers <= 0) return false;
    const others = this.viewerIds(socket);
    return !others.has(guest.userId) && others.size >= guest.maxViewers;
  }

  private welcome(socket: WebSocket, guest: Attachment): void {
    const viewers = this.viewerIds().size;
    this.send(socket, {
      type: "hello",
      peerId: guest.peerId,
      role: guest.role,
      viewers,
      tipsCents: Number(this.get("tipsCents") ?? 0),
      chat: this.recentChat(),
      tips: this.recentTips(),
      muted: this.isMuted(guest.userId),
    });
    if (guest.role === "creator") {
      this.set("heartbeatAt", Date.now());
      // The creator's (new) tab offers the stream to everyone already watching.
      for (const viewer of this.ctx.getWebSockets(ROLE_TAG.viewer))
        this.send(socket, { type: "peer-joined", peerId: this.attachmentOf(viewer).peerId });
    } else {
      for (const creator of this.ctx.getWebSockets(ROLE_TAG.creator))
        this.send(creator, { type: "peer-joined", peerId: guest.peerId });
      this.viewersChanged(viewers);
    }
  }

  /** A tip the ledger has committed: kept, and shown to everyone with the stream's total. */
  async tip(tip: LiveTipLine, tipsCents: number): Promise<number> {
    this.sql.exec(
      "INSERT OR IGNORE INTO tips (id, user_id, username, name, amount_cents, note, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      tip.id,
      tip.user.id,
      tip.user.username,
      tip.user.name,
      tip.amountCents,
      tip.note,
      tip.at,
    );
    this.set("tipsCents", Math.max(tipsCents, Number(this.get("tipsCents") ?? 0)));
    return this.broadcast({ type: "tip", tip, tipsCents });
  }

  /** The stream ended (its creator, the silence alarm, a moderator): everyone is told, and every socket closed. */
  async end(reason: LiveEndReason): Promise<void> {
    if (this.ended) return;
    this.set("ended", reason);
    for (const socket of this.ctx.getWebSockets()) {
      this.send(socket, { type: "ended", reason });
      closeQuietly(
        socket,
        LIVE_CLOSE.ended,
        translatorFor(this.attachmentOf(socket).language)("This stream has ended"),
      );
    }
    await this.ctx.storage.setAlarm(Date.now() + FORGET_AFTER_MS);
  }

  /** Sessions of `userId` ended: their sockets close (4401). Answers how many of the person's sockets stay open. */
  async closeSessions(userId: number, sessionIds: number[]): Promise<number> {
    for (const socket of closeSessionSockets(this.ctx, sessionIds)) this.left(socket);
    return openSocketsOf(this.ctx, userId);
  }

  /** These people may no longer watch (a block, an audience that no longer admits them): their sockets close. */
  async shutOut(userIds: number[]): Promise<void> {
    const creatorId = Number(this.get("creator"));
    for (const userId of userIds) {
      if (userId === creatorId) continue;
      this.sql.exec("INSERT OR IGNORE INTO shut_out (user_id) VALUES (?)", userId);
      this.closeViewer(userId, LIVE_CLOSE.shutOut, SHUT_OUT);
    }
  }

  /** Closes every socket of a viewer, telling why in their language, and counts them out. */
  private closeViewer(userId: number, code: number, why: string): void {
    for (const viewer of this.ctx.getWebSockets(userTag(userId))) {
      if (this.attachmentOf(viewer).role !== "viewer") continue;
      closeQuietly(viewer, code, translatorFor(this.attachmentOf(viewer).language)(why));
      this.left(viewer);
    }
  }

  /** How many sockets are open (diagnostics and tests). */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    if (data === PING) {
      sendOrClose(socket, PONG);
      return;
    }
    const frame = parseFrame(liveClientFrame, data);
    if (!frame || this.ended || socket.readyState !== WebSocket.OPEN) return;
    const me = this.attachmentOf(socket);
    if (me.role === "viewer" && (this.isRemoved(me.userId) || this.isShutOut(me.userId))) return;
    const t = translatorFor(me.language);
    switch (frame.type) {
      case "heartbeat":
        if (me.role === "creator") this.set("heartbeatAt", Date.now());
        return;
      case "chat": {
        const text = frame.text.trim();
        if (!text || CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text)) return;
        if (me.role === "viewer" && this.isMuted(me.userId))
          return void this.send(socket, { type: "refused", message: t(CHAT_MUTED) });
        const pace = this.pace(me.userId);
        if (pace === "flood") return closeQuietly(socket, LIVE_CLOSE.flood, t(CHAT_TOO_FAST));
        if (pace === "slow down") return void this.send(socket, { type: "refused", message: t(CHAT_TOO_FAST) });
        const at = new Date().toISOString();
        const row = this.sql
          .exec<{ id: number }>(
            "INSERT INTO chat (user_id, username, name, text, at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            me.userId,
            me.username,
            me.name,
            text,
            at,
          )
          .one();
        this.broadcast({
          type: "chat",
          line: { id: row.id, user: { id: me.userId, username: me.username, name: me.name }, text, at },
        });
        return;
      }
      case "signal": {
        // A viewer signals only the creator; the creator signals any viewer. Peer ids are the room's own.
        const target = this.ctx.getWebSockets(peerTag(frame.to))[0];
        if (!target) return;
        const targetRole = this.attachmentOf(target).role;
        if (me.role === targetRole) return;
        this.send(target, { type: "signal", from: me.peerId, signal: frame.signal });
        return;
      }
      case "mute":
        if (me.role !== "creator" || frame.userId === me.userId) return;
        if (frame.muted) this.sql.exec("INSERT OR IGNORE INTO muted (user_id) VALUES (?)", frame.userId);
        else this.sql.exec("DELETE FROM muted WHERE user_id = ?", frame.userId);
        for (const viewer of this.ctx.getWebSockets(userTag(frame.userId)))
          this.send(viewer, { type: "muted", muted: frame.muted });
        return;
      case "remove":
        if (me.role !== "creator" || frame.userId === me.userId) return;
        this.sql.exec("INSERT OR IGNORE INTO removed (user_id) VALUES (?)", frame.userId);
        this.closeViewer(frame.userId, LIVE_CLOSE.removed, REMOVED);
        return;
    }
  }

  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(socket, code, reason);
    this.left(socket);
  }

  async webSocketError(socket: WebSocket, error: unknown): Promise<void> {
    console.warn("live room socket error", error);
    closeQuietly(socket, CLOSE_CODES.internalError);
    this.left(socket);
  }

  /** A socket went away: the creator learns its peer left; the count changes; a creator gone starts the clock. */
  private left(socket: WebSocket): void {
    if (this.ended) return;
    const { role, peerId } = this.attachmentOf(socket);
    if (role === "viewer") {
      for (const creator of this.ctx.getWebSockets(ROLE_TAG.creator)) this.send(creator, { type: "peer-left", peerId });
      this.viewersChanged(this.viewerIds(socket).size);
    }
  }

  /**
   * Every LIVE_SILENT_AFTER_MS / 3 while live: a creator silent (no heartbeat, no socket) for LIVE_SILENT_AFTER_MS
   * ends the stream in D1 (and so everywhere); otherwise every viewer's access is checked again, and those who may
   * no longer watch are shut out (docs/decisions/live-access-recheck.md). Once ended, the room forgets what it kept.
   */
  async alarm(): Promise<void> {
    if (this.ended) {
      for (const socket of this.ctx.getWebSockets()) closeQuietly(socket, LIVE_CLOSE.ended);
      await this.ctx.storage.deleteAll();
      return;
    }
    const streamId = Number(this.get("stream"));
    const heartbeatAt = Number(this.get("heartbeatAt") ?? 0);
    if (streamId > 0 && Date.now() - heartbeatAt >= LIVE_SILENT_AFTER_MS) {
      // Ended in D1 first (the lists, and LiveEnded for the other adapters), then here; end() runs once.
      await endLiveStream(
        { db: this.env.DB, publish: createPublisher(this.env, (work) => this.ctx.waitUntil(work)) },
        streamId,
        "silent",
      );
      await this.end("silent");
      return;
    }
    await this.ctx.storage.setAlarm(Date.now() + LIVE_SILENT_AFTER_MS / 3);
    const viewers = [...this.viewerIds()];
    if (streamId === 0 || viewers.length === 0) return;
    try {
      await this.shutOut(await viewersShutOut(this.env.DB, streamId, viewers));
    } catch (error) {
      // The next alarm checks again.
      console.warn("live viewers' access not checked", error);
    }
  }

  // ── helpers ──

  private attachmentOf(socket: WebSocket): Attachment {
    return socket.deserializeAttachment() as Attachment;
  }

  /** The people on viewer sockets, `leaving` excepted (a socket closing is still listed while its close runs). */
  private viewerIds(leaving?: WebSocket): Set<number> {
    const ids = new Set<number>();
    for (const socket of this.ctx.getWebSockets(ROLE_TAG.viewer)) {
      if (socket === leaving || socket.readyState !== WebSocket.OPEN) continue;
      ids.add(this.attachmentOf(socket).userId);
    }
    return ids;
  }

  private viewersChanged(count: number): void {
    this.broadcast({ type: "viewers", count });
    const streamId = Number(this.get("stream"));
    // The lists read the count from D1; a write that fails is caught up by the next change.
    this.ctx.waitUntil(
      this.env.DB.prepare(
        "UPDATE live_streams SET viewers = ?1, peak_viewers = MAX(peak_viewers, ?1) WHERE id = ?2 AND status = 'live'",
      )
        .bind(count, streamId)
        .run()
        .catch((error: unknown) => console.warn("live viewers not written", error)),
    );
  }

  /** The person's chat pace: fine, "slow down" (over LIVE_CHAT_LINES in the window) or "flood" (three times that). */
  private pace(userId: number): "ok" | "slow down" | "flood" {
    const now = Date.now();
    const times = (this.recentLines.get(userId) ?? []).filter((at) => now - at < LIVE_CHAT_WINDOW_MS);
    times.push(now);
    this.recentLines.set(userId, times);
    if (times.length > LIVE_CHAT_LINES * 3) return "flood";
    return times.length > LIVE_CHAT_LINES ? "slow down" : "ok";
  }

  private isMuted(userId: number): boolean {
    return this.sql.exec("SELECT 1 FROM muted WHERE user_id = ?", userId).toArray().length > 0;
  }

  private isRemoved(userId: number): boolean {
    return this.sql.exec("SELECT 1 FROM removed WHERE user_id = ?", userId).toArray().length > 0;
  }

  private isShutOut(userId: number): boolean {
    return this.sql.exec("SELECT 1 FROM shut_out WHERE user_id = ?", userId).toArray().length > 0;
  }

  private recentChat(): LiveChatLine[] {
    return this.sql
      .exec<{ id: number; user_id: number; username: string; name: string; text: string; at: string }>(
        "SELECT * FROM chat ORDER BY id DESC LIMIT ?",
        HELLO_LINES,
      )
      .toArray()
      .reverse()
      .map((row) => ({
        id: row.id,
        user: { id: row.user_id, username: row.username, name: row.name },
        text: row.text,
        at: row.at,
      }));
  }

  private recentTips(): LiveTipLine[] {
    return this.sql
      .exec<{
        id: number;
        user_id: number;
        username: string;
        name: string;
        amount_cents: number;
        note: string | null;
        at: string;
      }>("SELECT * FROM tips ORDER BY id DESC LIMIT ?", HELLO_LINES)
      .toArray()
      .reverse()
      .map((row) => ({
        id: row.id,
        user: { id: row.user_id, username: row.username, name: row.name },
        amountCents: row.amount_cents,
        note: row.note,
        at: row.at,
      }));
  }

  private send(socket: WebSocket, frame: LiveServerFrame): boolean {
    return sendOrClose(socket, JSON.stringify(frame));
  }

  /** Sends a frame to every open socket; returns how many it reached. */
  private broadcast(frame: LiveServerFrame): number {
    const text = JSON.stringify(frame);
    let reached = 0;
    for (const socket of this.ctx.getWebSockets()) if (sendOrClose(socket, text)) reached++;
    return reached;
  }
}
