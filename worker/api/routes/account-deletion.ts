import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { AccountDeletionBodySchema, AccountDeletionSchema } from "@shared/contracts/account-deletion";
import { cancelDeletion } from "../../domain/account-deletion/cancel-deletion";
import { getDeletionState } from "../../domain/account-deletion/deletion-state";
import { requestDeletion } from "../../domain/account-deletion/request-deletion";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422, 429: e429 } = errorResponses;

/** /api/account/deletion: leaving (Settings → Privacy and data), and keeping the account during the grace days. */
export const accountDeletionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

accountDeletionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/account/deletion",
    tags: ["Account"],
    summary: "Whether the account is to be deleted, and what its deletion does with the money",
    middleware: [requireSession] as const,
    responses: { 200: json(AccountDeletionSchema, "The state"), 401: e401 },
  }),
  async (c) => c.json(await getDeletionState(c.get("domain").db, c.get("session").user.id), 200),
);

accountDeletionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/account/deletion",
    tags: ["Account"],
    summary:
      "Delete the account in 30 days (hidden at once; other sessions end); needs the password, and a code when two-step sign-in is on",
    middleware: [requireSession] as const,
    request: { body: jsonBody(AccountDeletionBodySchema) },
    responses: { 200: json(AccountDeletionSchema, "Leaving"), 401: e401, 403: e403, 422: e422, 429: e429 },
  }),
  async (c) => c.json(await requestDeletion(c.get("domain"), c.get("session"), c.req.valid("json")), 200),
);

accountDeletionRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/account/deletion",
    tags: ["Account"],
    summary: "Keep the account: cancels its deletion (idempotent)",
    middleware: [requireSession] as const,
    responses: { 200: json(AccountDeletionSchema, "Kept"), 401: e401 },
  }),
  async (c) => c.json(await cancelDeletion(c.get("domain").db, c.get("session").user), 200),
);
