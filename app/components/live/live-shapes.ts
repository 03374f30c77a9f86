import type { LiveIceServer, LiveMediaView, LiveStreamView } from "@shared/contracts/live";
import { array, boolean, either, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";

/** The live API's answers as the page checks them (shared/contracts/live.ts has the types). */
/** An ICE server: its addresses, and a TURN server's username and credential when it has them. */
const iceServer: Shape<LiveIceServer> = (value, path = "") => {
  const { urls } = object({ urls: array(string) })(value, path);
  const { username, credential } = value as { username?: unknown; credential?: unknown };
  return typeof username === "string" && typeof credential === "string" ? { urls, username, credential } : { urls };
};
const plan = { iceServers: array(iceServer), loopbackOnly: boolean };

export const liveMediaShape: Shape<LiveMediaView> = either(
  object({ transport: oneOf("p2p"), ...plan, maxViewers: number }),
  object({ transport: oneOf("whip"), ...plan, publishUrl: nullable(string), playUrl: nullable(string) }),
);

export const liveStreamShape: Shape<LiveStreamView> = object({
  id: number,
  title: string,
  audience: oneOf("everyone", "followers", "subscribers"),
  priceCents: number,
  goal: nullable(object({ cents: number, title: nullable(string) })),
  transport: oneOf("p2p", "whip"),
  status: oneOf("live", "ended"),
  endReason: nullable(oneOf("creator", "silent", "moderation")),
  startedAt: string,
  endedAt: nullable(string),
  viewers: number,
  peakViewers: number,
  tipsCents: number,
  creator: object({ id: number, username: string, name: string, avatarUrl: string }),
  viewer: object({ isCreator: boolean, hasEntry: boolean, canWatch: boolean, follows: boolean, subscribes: boolean }),
});
