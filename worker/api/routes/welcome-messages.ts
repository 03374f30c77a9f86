import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { WelcomeMessageBodySchema, WelcomeMessageSchema } from "@shared/contracts/welcome-messages";
import { getWelcomeMessage } from "../../domain/welcome-messages/get-welcome-message";
import { setWelcomeMessage } from "../../domain/welcome-messages/set-welcome-message";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** /api/me/welcome-message: the message a creator's new subscribers get, once each. */
export const welcomeMessageRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

welcomeMessageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/welcome-message",
    tags: ["Messages"],
    summary: "Your welcome message to new subscribers (creators)",
    middleware: [requireSession] as const,
    responses: { 200: json(WelcomeMessageSchema, "The welcome message"), 401: e401, 403: e403 },
  }),
  async (c) => c.json(await getWelcomeMessage(c.get("domain").db, c.get("session").user), 200),
);

welcomeMessageRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/welcome-message",
    tags: ["Messages"],
    summary:
      "Turn your welcome message on or off and set its text, media (your uploads) and optional price; it goes once to each new subscriber (creators)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(WelcomeMessageBodySchema) },
    responses: { 200: json(WelcomeMessageSchema, "The welcome message as saved"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await setWelcomeMessage(c.get("domain"), c.get("session").user, c.req.valid("json")), 200),
);
