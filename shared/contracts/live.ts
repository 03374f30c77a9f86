/**
 * The live streams API's answers (/api/live…): written by worker/domain/live and worker/live/transports.ts,
 * documented by worker/api, checked by the studio with app/components/live/live-shapes.ts, generated from these
 * schemas. The page imports types only from here: its constants are in live-limits.ts.
 */

import { z } from "zod";
import { LIVE_AUDIENCES, LIVE_END_REASONS, LIVE_STATUSES, LIVE_TRANSPORTS } from "./live-limits";
import { orNull } from "./common";
import { PaymentSchema } from "./money";

export const LiveStreamSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    audience: z.enum(LIVE_AUDIENCES),
    priceCents: z.number().int().meta({ description: "Entry price, paid once (0: free)" }),
    goal: z.object({ cents: z.number().int(), title: z.string().nullable() }).nullable(),
    transport: z.enum(LIVE_TRANSPORTS),
    status: z.enum(LIVE_STATUSES),
    endReason: z.enum(LIVE_END_REASONS).nullable(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    viewers: z.number().int(),
    peakViewers: z.number().int(),
    tipsCents: z.number().int(),
    creator: z.object({ id: z.number().int(), username: z.string(), name: z.string(), avatarUrl: z.string() }),
    viewer: z
      .object({
        isCreator: z.boolean(),
        hasEntry: z.boolean(),
        canWatch: z.boolean(),
        follows: z.boolean(),
        subscribes: z.boolean(),
      })
      .meta({
        description:
          "What the viewer may do: the creator runs it; others watch once entered (a paid stream's price paid)",
      }),
  })
  .meta({ id: "LiveStream" });
export type LiveStreamView = z.infer<typeof LiveStreamSchema>;

/** GET /live: the streams live now that the viewer may see. */
export const LiveStreamsSchema = z.object({ streams: z.array(LiveStreamSchema) }).meta({ id: "LiveStreams" });

/** GET /live/current: the caller's own stream that is live now, or null. */
export const CurrentLiveStreamSchema = z.object({ stream: orNull(LiveStreamSchema) }).meta({ id: "CurrentLiveStream" });

/** An ICE server: its addresses, and a TURN server's username and credential when it has them. */
const LiveIceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type LiveIceServer = z.infer<typeof LiveIceServerSchema>;

const loopbackOnly = z.boolean().meta({ description: "Test mode: keep only 127.0.0.1 ICE candidates" });

/**
 * Where the browser sends and fetches the video (GET /live/{id}/media): only for who may watch or publish.
 * `loopbackOnly` (APP_ENV=test): the browsers keep only 127.0.0.1 ICE candidates, so test traffic never leaves the
 * machine.
 */
export const LiveMediaSchema = z
  .union([
    z.object({
      transport: z.literal("p2p"),
      iceServers: z.array(LiveIceServerSchema),
      loopbackOnly,
      maxViewers: z.number().int(),
    }),
    z.object({
      transport: z.literal("whip"),
      iceServers: z.array(LiveIceServerSchema),
      loopbackOnly,
      publishUrl: z.string().nullable().meta({ description: "WHIP endpoint: the creator's only" }),
      playUrl: z.string().nullable().meta({ description: "WHEP endpoint: for who may watch" }),
    }),
  ])
  .meta({ id: "LiveMedia" });
export type LiveMediaView = z.infer<typeof LiveMediaSchema>;

/** The entry step's answer: the entry price's payment (null for a free stream), and whether it was a replay. */
export const LiveEntrySchema = z
  .object({
    payment: orNull(PaymentSchema),
    replayed: z.boolean().meta({ description: "The stream was entered before: nothing was charged again" }),
  })
  .meta({ id: "LiveEntry" });
export type LiveEntry = z.infer<typeof LiveEntrySchema>;
