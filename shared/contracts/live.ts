/**
 * The live streams API's shapes as the page receives them (/api/live…): written by worker/domain/live, read by the
 * /live screens. Plain types and constants only: nothing here may import Worker code.
 */

export const LIVE_AUDIENCES = ["everyone", "followers", "subscribers"] as const;
export type LiveAudience = (typeof LIVE_AUDIENCES)[number];

/** How the video travels: browser to browser (signalled by the LiveRoom), or WHIP/WHEP through an SFU. */
export const LIVE_TRANSPORTS = ["p2p", "whip"] as const;
export type LiveTransportKind = (typeof LIVE_TRANSPORTS)[number];

export type LiveStatus = "live" | "ended";
export type LiveEndReason = "creator" | "silent" | "moderation";

/** An entry price, when a stream has one: from $1 to $200. */
export const MIN_LIVE_PRICE_CENTS = 100;
export const MAX_LIVE_PRICE_CENTS = 20_000;
/** A tip goal: from $1 to $100,000. */
export const MIN_LIVE_GOAL_CENTS = 100;
export const MAX_LIVE_GOAL_CENTS = 10_000_000;
export const MAX_LIVE_TITLE_LENGTH = 100;
/** What a chat line may hold. */
export const MAX_LIVE_CHAT_LENGTH = 300;

export interface LiveStreamView {
  id: number;
  title: string;
  audience: LiveAudience;
  priceCents: number;
  goal: { cents: number; title: string | null } | null;
  transport: LiveTransportKind;
  status: LiveStatus;
  endReason: LiveEndReason | null;
  startedAt: string;
  endedAt: string | null;
  viewers: number;
  peakViewers: number;
  tipsCents: number;
  creator: { id: number; username: string; name: string; avatarUrl: string };
  /** What the viewer may do: the creator runs it; others watch once entered (a paid stream's entry price paid). */
  viewer: { isCreator: boolean; hasEntry: boolean; canWatch: boolean; follows: boolean; subscribes: boolean };
}

/** Where the browser sends and fetches the video (GET /api/live/{id}/media): only for who may watch or publish. */
export interface LiveIceServer {
  urls: string[];
  username?: string;
  credential?: string;
}
/** `loopbackOnly` (APP_ENV=test): the browsers keep only 127.0.0.1 ICE candidates, so test traffic never leaves the machine. */
export type LiveMediaView =
  | { transport: "p2p"; iceServers: LiveIceServer[]; loopbackOnly: boolean; maxViewers: number }
  | {
      transport: "whip";
      iceServers: LiveIceServer[];
      loopbackOnly: boolean;
      publishUrl: string | null;
      playUrl: string | null;
    };
