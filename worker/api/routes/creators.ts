import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { CreatorApplicationAnswerSchema, CreatorRequestBodySchema } from "@shared/contracts/creators";
import { getCreatorApplication } from "../../domain/creators/creator-application";
import { submitCreatorRequest } from "../../domain/creators/submit-creator-request";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** Spec §4, Become a creator: the member's application and where it stands. */
export const creatorRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

creatorRoutes.openapi(
  createRoute({
    method: "get",
    path: "/creatorRequest",
    tags: ["Creators"],
    summary: "The user's latest creator application (null when they never applied)",
    middleware: [requireSession] as const,
    responses: { 200: json(CreatorApplicationAnswerSchema, "The latest application"), 401: e401 },
  }),
  async (c) => c.json({ application: await getCreatorApplication(c.get("domain").db, c.get("session").user.id) }, 200),
);

creatorRoutes.openapi(
  createRoute({
    method: "post",
    path: "/creatorRequest",
    tags: ["Creators"],
    summary: "Apply to become a creator with an uploaded ID document and selfie (purposes id_document, id_selfie)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(CreatorRequestBodySchema) },
    responses: { 201: json(CreatorApplicationAnswerSchema, "Pending validation"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const user = c.get("session").user;
    await submitCreatorRequest(db, user, c.req.valid("json"), c.get("domain").language);
    return c.json({ application: await getCreatorApplication(db, user.id) }, 201);
  },
);
