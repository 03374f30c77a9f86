import { z } from "zod/mini";
import { LIVE_END_REASONS, MAX_LIVE_CHAT_LENGTH } from "./contracts/live-limits";

/**
 * The LiveRoom socket (one Durable Object per stream, worker/realtime/live-room.ts): every frame both ways is a JSON
 * text frame validated with these schemas on the Worker and in the browser (zod/mini: the live screens' own chunk).
 * Keep-alive is the user channel's "ping"/"pong". Signalling frames carry WebRTC's own SDP and candidates, opaque
 * here (bounded in size).
 */

const person = z.object({ id: z.number(), username: z.string(), name: z.string() });

const liveChatLine = z.object({ id: z.number(), user: person, text: z.string(), at: z.string() });
const liveTipLine = z.object({
  id: z.number(),
  user: person,
  amountCents: z.number(),
  note: z.nullable(z.string()),
  at: z.string(),
});

const sdp = z.object({ type: z.enum(["offer", "answer"]), sdp: z.string().check(z.maxLength(32_000)) });
const candidate = z.object({
  candidate: z.string().check(z.maxLength(2000)),
  sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  sdpMLineIndex: z.optional(z.nullable(z.number())),
});
const signal = z.union([z.object({ description: sdp }), z.object({ candidate: z.nullable(candidate) })]);

/** Server → browser. */
export const liveServerFrame = z.discriminatedUnion("type", [
  /** The first frame: who this socket is, the room's state and the recent chat. */
  z.object({
    type: z.literal("hello"),
    peerId: z.string(),
    role: z.enum(["creator", "viewer"]),
    viewers: z.number(),
    tipsCents: z.number(),
    chat: z.array(liveChatLine),
    tips: z.array(liveTipLine),
    muted: z.boolean(),
  }),
  z.object({ type: z.literal("viewers"), count: z.number() }),
  z.object({ type: z.literal("chat"), line: liveChatLine }),
  /** A tip, once the ledger has committed it; `tipsCents` is the stream's total (the goal bar). */
  z.object({ type: z.literal("tip"), tip: liveTipLine, tipsCents: z.number() }),
  /** p2p: a viewer's socket arrived (to the creator, who offers it the stream) or left. */
  z.object({ type: z.literal("peer-joined"), peerId: z.string() }),
  z.object({ type: z.literal("peer-left"), peerId: z.string() }),
  /** p2p: WebRTC signalling relayed between the creator and one viewer. */
  z.object({ type: z.literal("signal"), from: z.string(), signal }),
  /** The creator muted (or unmuted) this viewer in the chat. */
  z.object({ type: z.literal("muted"), muted: z.boolean() }),
  /** A chat line or action refused (too fast, muted): a translated sentence. */
  z.object({ type: z.literal("refused"), message: z.string() }),
  z.object({ type: z.literal("ended"), reason: z.enum(LIVE_END_REASONS) }),
]);

/** Browser → server. */
export const liveClientFrame = z.discriminatedUnion("type", [
  z.object({ type: z.literal("chat"), text: z.string().check(z.minLength(1), z.maxLength(MAX_LIVE_CHAT_LENGTH)) }),
  /** The creator's tab is alive (every LIVE_HEARTBEAT_MS). */
  z.object({ type: z.literal("heartbeat") }),
  z.object({ type: z.literal("signal"), to: z.string().check(z.maxLength(64)), signal }),
  /** Creator only: mute or unmute a viewer in the chat, or remove them from the stream. */
  z.object({ type: z.literal("mute"), userId: z.number(), muted: z.boolean() }),
  z.object({ type: z.literal("remove"), userId: z.number() }),
]);

export type LiveServerFrame = z.infer<typeof liveServerFrame>;
export type LiveClientFrame = z.infer<typeof liveClientFrame>;
export type LiveChatLine = z.infer<typeof liveChatLine>;
export type LiveTipLine = z.infer<typeof liveTipLine>;

/** Where the browser opens a stream's socket. */
export const liveSocketPath = (streamId: number) => `/ws/live/${streamId}`;

/** The creator's tab says it is alive this often; silent for LIVE_SILENT_AFTER_MS (or gone that long), the stream ends. */
export const LIVE_HEARTBEAT_MS = 5_000;
export const LIVE_SILENT_AFTER_MS = 30_000;

/** Chat: at most this many lines per viewer in LIVE_CHAT_WINDOW_MS; three times that, and the socket is closed. */
export const LIVE_CHAT_LINES = 5;
export const LIVE_CHAT_WINDOW_MS = 10_000;

/**
 * Socket close codes of a LiveRoom (4000–4999 are the application's); `shutOut`: the person may no longer watch (a
 * block, an audience that no longer admits them). A session's end closes with the user channel's 4401.
 */
export const LIVE_CLOSE = { ended: 4000, full: 4009, removed: 4003, flood: 4029, shutOut: 4403 } as const;
