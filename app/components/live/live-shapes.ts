// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { LiveMediaView, LiveStreamView } from "@shared/contracts/live";
import {
  anyOf,
  array,
  boolean,
  nullable,
  number,
  literal,
  object,
  oneOf,
  optional,
  string,
  type Shape,
} from "@shared/shape";

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

export const liveMediaShape: Shape<LiveMediaView> = anyOf(
  object({
    transport: literal("p2p"),
    iceServers: array(object({ urls: array(string), username: optional(string), credential: optional(string) })),
    loopbackOnly: boolean,
    maxViewers: number,
  }),
  object({
    transport: literal("whip"),
    iceServers: array(object({ urls: array(string), username: optional(string), credential: optional(string) })),
    loopbackOnly: boolean,
    publishUrl: nullable(string),
    playUrl: nullable(string),
  }),
);
