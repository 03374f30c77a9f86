import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import {
  CurrentLiveStreamSchema,
  LiveEntrySchema,
  LiveMediaSchema,
  LiveStreamSchema,
  LiveStreamsSchema,
} from "@shared/contracts/live";
import { PaymentResultSchema } from "@shared/contracts/money";
import { joinLiveStream, sendLiveTip } from "../../domain/live/live-money";
import { JoinLiveSchema, StartLiveSchema } from "@shared/contracts/live-bodies";
import { TipSchema } from "@shared/contracts/money-bodies";
import {
  currentLiveStreamOf,
  endOwnLiveStream,
  getLiveStream,
  listLiveNow,
  LIVE_NOT_FOUND_ERROR,
  startLiveStream,
} from "../../domain/live/streams";
import { requireLiveAccess } from "../../domain/policies/live";
import { config } from "../../env";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { liveMediaView, liveTransportOf } from "../../live/transports";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 402: e402, 403: e403, 409: e409, 422: e422 } = errorResponses;

export const liveRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

liveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/live",
    tags: ["Live"],
    summary: "Streaming right now: the live streams the caller may see, creators they subscribe to and follow first",
    middleware: [requireSession] as const,
    responses: { 200: json(LiveStreamsSchema, "Live streams"), 401: e401 },
  }),
  async (c) => c.json({ streams: await listLiveNow(c.get("domain").db, c.get("session").user) }, 200),
);

liveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/live",
    tags: ["Live"],
    summary:
      "Go live (creators): title, audience, optional entry price and tip goal; followers and subscribers are notified",
    middleware: [requireSession] as const,
    request: { body: jsonBody(StartLiveSchema) },
    responses: { 201: json(LiveStreamSchema, "The stream, live"), 401: e401, 403: e403, 409: e409, 422: e422 },
  }),
  async (c) => {
    const transport = liveTransportOf(config(c.env));
    const input = c.req.valid("json");
    const media = await transport.prepare();
    try {
      return c.json(
        await startLiveStream(c.get("domain"), c.get("session").user, input, { transport: transport.kind, ...media }),
        201,
      );
    } catch (error) {
      if (media.inputId) c.get("domain").defer(transport.release(media.inputId));
      throw error;
    }
  },
);

liveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/live/current",
    tags: ["Live"],
    summary: "The caller's own stream that is live now, if any",
    middleware: [requireSession] as const,
    responses: { 200: json(CurrentLiveStreamSchema, "The stream, or null"), 401: e401 },
  }),
  async (c) => c.json({ stream: await currentLiveStreamOf(c.get("domain").db, c.get("session").user) }, 200),
);

liveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/live/{id}",
    tags: ["Live"],
    summary: "One stream, with what the caller may do (404 when its audience shuts them out)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(LiveStreamSchema, "The stream"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    const stream = await getLiveStream(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    if (!stream) throw LIVE_NOT_FOUND_ERROR();
    return c.json(stream, 200);
  },
);

liveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/live/{id}/join",
    tags: ["Live"],
    summary:
      "The entry step: checks the audience and takes a paid stream's entry price (the one shown: priceCents) from the wallet, once ever",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(JoinLiveSchema) },
    responses: {
      200: json(LiveEntrySchema, "Entered (payment: null for a free stream)"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      409: e409,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await joinLiveStream(
        c.get("domain"),
        c.get("session").user,
        c.req.valid("param").id,
        c.req.valid("json").priceCents ?? 0,
      ),
      200,
    ),
);

liveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/live/{id}/end",
    tags: ["Live"],
    summary: "End one's own stream: every viewer is told",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(LiveStreamSchema, "The stream, ended"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await endOwnLiveStream(c.get("domain"), c.get("session").user, c.req.valid("param").id), 200),
);

liveRoutes.openapi(
  createRoute({
    method: "post",
    path: "/live/{id}/tips",
    tags: ["Live", "Money"],
    summary: "Tip during a stream (for who may watch it); shown to everyone once paid; needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(TipSchema) },
    responses: {
      200: json(PaymentResultSchema, "The tip's payment"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      409: e409,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await sendLiveTip(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

liveRoutes.openapi(
  createRoute({
    method: "get",
    path: "/live/{id}/media",
    tags: ["Live"],
    summary:
      "Where the video goes: for p2p the ICE servers and the viewer cap; for whip the WHIP (creator) or WHEP (watchers) address",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: {
      200: json(LiveMediaSchema, "The media addresses"),
      401: e401,
      402: e402,
      404: e404,
      409: e409,
      422: e422,
    },
  }),
  async (c) => {
    const { stream, facts } = await requireLiveAccess(
      c.get("domain").db,
      c.get("session").user,
      c.req.valid("param").id,
      "watch",
    );
    return c.json(liveMediaView(config(c.env), stream, facts.isCreator), 200);
  },
);
