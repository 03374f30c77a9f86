import type { LiveEndReason } from "@shared/contracts/live-limits";
import { LIVE_CLOSE, type LiveChatLine, type LiveServerFrame, type LiveTipLine } from "@shared/live-events";

/** What the screen shows of a stream's room, folded from its socket's frames (pure: tests/unit/live-room.test.ts). */
export interface LiveRoomState {
  /** The socket is open and said hello. */
  connected: boolean;
  peerId: string | null;
  viewers: number;
  /** The most viewers at once: the stream's peak when the page loaded, raised by every count the room sends since. */
  peakViewers: number;
  tipsCents: number;
  /** Chat lines and tips, oldest first, at most FEED_LIMIT. */
  feed: FeedItem[];
  /** The newest tip, shown over the video for a few seconds. */
  latestTip: LiveTipLine | null;
  muted: boolean;
  /** Why the last chat line or action was refused (translated by the server). */
  refused: string | null;
  ended: LiveEndReason | null;
  /** The room closed the socket for good: why, in the person's language (full, removed, too fast, ended). */
  closedWith: string | null;
}

export type FeedItem =
  { kind: "chat"; key: string; line: LiveChatLine } | { kind: "tip"; key: string; tip: LiveTipLine };

export const FEED_LIMIT = 200;

export const initialLiveRoom = (tipsCents: number, viewers: number, peakViewers = viewers): LiveRoomState => ({
  connected: false,
  peerId: null,
  viewers,
  peakViewers: Math.max(peakViewers, viewers),
  tipsCents,
  feed: [],
  latestTip: null,
  muted: false,
  refused: null,
  ended: null,
  closedWith: null,
});

export type LiveRoomAction =
  { type: "frame"; frame: LiveServerFrame } | { type: "closed"; code: number; reason: string } | { type: "dismiss" };

const chatItem = (line: LiveChatLine): FeedItem => ({ kind: "chat", key: `c${line.id}`, line });
const tipItem = (tip: LiveTipLine): FeedItem => ({ kind: "tip", key: `t${tip.id}`, tip });
const atOf = (item: FeedItem) => (item.kind === "chat" ? item.line.at : item.tip.at);

/** Adds items not held yet (a reconnect's hello repeats recent ones), keeps time order and the limit. */
function merge(feed: FeedItem[], items: FeedItem[]): FeedItem[] {
  const held = new Set(feed.map((item) => item.key));
  const fresh = items.filter((item) => !held.has(item.key));
  if (fresh.length === 0) return feed;
  const all = [...feed, ...fresh].sort((a, b) => (atOf(a) < atOf(b) ? -1 : atOf(a) > atOf(b) ? 1 : 0));
  return all.slice(-FEED_LIMIT);
}

/** The close codes after which the room will not take the socket back. */
export const FINAL_CLOSES: ReadonlySet<number> = new Set(Object.values(LIVE_CLOSE));

export function liveRoomReducer(state: LiveRoomState, action: LiveRoomAction): LiveRoomState {
  if (action.type === "dismiss") return { ...state, refused: null };
  if (action.type === "closed") {
    if (!FINAL_CLOSES.has(action.code)) return { ...state, connected: false };
    return {
      ...state,
      connected: false,
      ended: action.code === LIVE_CLOSE.ended ? (state.ended ?? "creator") : state.ended,
      closedWith: action.code === LIVE_CLOSE.ended ? null : action.reason || null,
    };
  }
  const frame = action.frame;
  switch (frame.type) {
    case "hello":
      return {
        ...state,
        connected: true,
        peerId: frame.peerId,
        viewers: frame.viewers,
        peakViewers: Math.max(state.peakViewers, frame.viewers),
        tipsCents: frame.tipsCents,
        muted: frame.muted,
        feed: merge(state.feed, [...frame.chat.map(chatItem), ...frame.tips.map(tipItem)]),
      };
    case "viewers":
      return { ...state, viewers: frame.count, peakViewers: Math.max(state.peakViewers, frame.count) };
    case "chat":
      return { ...state, feed: merge(state.feed, [chatItem(frame.line)]) };
    case "tip":
      return {
        ...state,
        tipsCents: Math.max(state.tipsCents, frame.tipsCents),
        latestTip: frame.tip,
        feed: merge(state.feed, [tipItem(frame.tip)]),
      };
    case "muted":
      return { ...state, muted: frame.muted };
    case "refused":
      return { ...state, refused: frame.message };
    case "ended":
      return { ...state, ended: frame.reason };
    default:
      // Signalling frames are the media's business, not the screen's.
      return state;
  }
}
