/**
 * The live streams' options and bounds the page needs too (the studio, the chat, the room's frames): apart from
 * live.ts, whose schemas the browser must not load.
 */

export const LIVE_AUDIENCES = ["everyone", "followers", "subscribers"] as const;
export type LiveAudience = (typeof LIVE_AUDIENCES)[number];

/** How the video travels: browser to browser (signalled by the LiveRoom), or WHIP/WHEP through an SFU. */
export const LIVE_TRANSPORTS = ["p2p", "whip"] as const;
export type LiveTransportKind = (typeof LIVE_TRANSPORTS)[number];

export const LIVE_STATUSES = ["live", "ended"] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

export const LIVE_END_REASONS = ["creator", "silent", "moderation"] as const;
export type LiveEndReason = (typeof LIVE_END_REASONS)[number];

/** An entry price, when a stream has one: from $1 to $200. */
export const MIN_LIVE_PRICE_CENTS = 100;
export const MAX_LIVE_PRICE_CENTS = 20_000;
/** A tip goal: from $1 to $100,000. */
export const MIN_LIVE_GOAL_CENTS = 100;
export const MAX_LIVE_GOAL_CENTS = 10_000_000;
export const MAX_LIVE_TITLE_LENGTH = 100;
/** What a chat line may hold. */
export const MAX_LIVE_CHAT_LENGTH = 300;
