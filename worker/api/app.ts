import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../domain/shared/errors";
import { errorResponse, TOO_LARGE } from "../http/errors";
import { wellFormedJsonBody } from "../http/well-formed-text";
import type { AppEnv } from "../http/types";
import { accountDeletionRoutes } from "./routes/account-deletion";
import { adminRoutes } from "./routes/admin";
import { authRoutes } from "./routes/auth";
import { twoStepRoutes } from "./routes/two-step";
import { followRoutes } from "./routes/follows";
import { geoBlockRoutes } from "./routes/geo-blocks";
import { creatorRoutes } from "./routes/creators";
import { deviceRoutes } from "./routes/devices";
import { dataExportRoutes } from "./routes/data-exports";
import { earningsRoutes } from "./routes/earnings";
import { fanRoutes } from "./routes/fans";
import { fanListRoutes } from "./routes/fan-lists";
import { moderationRoutes } from "./routes/moderation";
import { notificationRoutes } from "./routes/notifications";
import { massMessageRoutes } from "./routes/mass-messages";
import { welcomeMessageRoutes } from "./routes/welcome-messages";
import { messageRoutes } from "./routes/messages";
import { liveRoutes } from "./routes/live";
import { passkeyRoutes } from "./routes/passkeys";
import { paymentRoutes } from "./routes/payments";
import { postRoutes } from "./routes/posts";
import { pushRoutes } from "./routes/push";
import { interactionRoutes } from "./routes/interactions";
import { searchRoutes } from "./routes/search";
import { storyRoutes } from "./routes/stories";
import { profileRoutes } from "./routes/profiles";
import { shellRoutes } from "./routes/shell";
import { timelineRoutes } from "./routes/timeline";
import { subscriptionRoutes } from "./routes/subscriptions";
import { offerRoutes } from "./routes/offers";
import { topUpRoutes } from "./routes/top-ups";
import { uploadBodyRoutes, uploadRoutes } from "./routes/uploads";
import { vaultUseRoutes } from "./routes/vault-uses";
import { vaultRoutes } from "./routes/vault";
import { watermarkRoutes } from "./routes/watermarks";
import { webhookRoutes } from "./routes/webhooks";

const API_BODY_LIMIT = 64 * 1024;

/** Everything under /api: JSON in, JSON out, errors as `{ message, errors }`. */
export const api = new OpenAPIHono<AppEnv>();

// File bytes (upload parts, posters, previews) and provider webhooks come before the 64 KiB limit: those
// routes set their own.
api.route("/", uploadBodyRoutes);
api.route("/", webhookRoutes);
api.use(
  bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: (c) => errorResponse(c, new AppError("too_large", TOO_LARGE)),
  }),
);
api.use(wellFormedJsonBody);
api.use(async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
});

api.openapi(
  createRoute({
    method: "get",
    path: "/health",
    tags: ["Operations"],
    summary: "Liveness: answers without touching the database",
    responses: {
      200: { description: "Up", content: { "application/json": { schema: z.object({ ok: z.literal(true) }) } } },
    },
  }),
  (c) => c.json({ ok: true as const }, 200),
);

api.route("/", authRoutes);
api.route("/", deviceRoutes);
api.route("/", twoStepRoutes);
// Before any router with /posts/{id}: /posts/scheduled and /posts/processing must not be read as an id.
api.route("/", postRoutes);
api.route("/", shellRoutes);
api.route("/", notificationRoutes);
api.route("/", timelineRoutes);
api.route("/", interactionRoutes);
api.route("/", searchRoutes);
api.route("/", profileRoutes);
api.route("/", followRoutes);
api.route("/", subscriptionRoutes);
api.route("/", offerRoutes);
api.route("/", fanRoutes);
api.route("/", fanListRoutes);
api.route("/", uploadRoutes);
api.route("/", watermarkRoutes);
api.route("/", creatorRoutes);
api.route("/", moderationRoutes);
api.route("/", adminRoutes);
api.route("/", paymentRoutes);
api.route("/", topUpRoutes);
api.route("/", earningsRoutes);
api.route("/", messageRoutes);
api.route("/", liveRoutes);
api.route("/", massMessageRoutes);
api.route("/", welcomeMessageRoutes);
api.route("/", pushRoutes);
api.route("/", passkeyRoutes);
api.route("/", storyRoutes);
api.route("/", accountDeletionRoutes);
api.route("/", dataExportRoutes);
api.route("/", geoBlockRoutes);
api.route("/", vaultUseRoutes);
api.route("/", vaultRoutes);

api.doc31("/openapi.json", {
  openapi: "3.1.0",
  info: {
    title: "Fanclub API",
    version: "1.0.0",
    description: "JSON API of the creator subscription app. Authenticate with `Authorization: Bearer {token}`.",
  },
  servers: [{ url: "/api" }],
});
