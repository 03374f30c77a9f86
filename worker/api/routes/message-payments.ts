import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { chargeMessage, MessagePaymentSchema } from "../../domain/money/charge-message";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, json, jsonBody, PaymentSchema, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 402: e402, 403: e403, 422: e422 } = errorResponses;

const MessageChargeSchema = z.object({
  charged: z.boolean().openapi({ description: "false: the creator's messages are free and nothing was paid" }),
  payment: PaymentSchema.optional(),
  replayed: z.boolean().optional(),
});

export const messagePaymentRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

messagePaymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/message-payment",
    tags: ["Money"],
    summary: "Pay the creator's per-message price from the wallet before sending a message; needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: UsernameParams, body: jsonBody(MessagePaymentSchema) },
    responses: { 200: json(MessageChargeSchema, "The charge (or none when messages are free)"), 401: e401, 402: e402, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await chargeMessage(c.var.domain, c.var.session!.user, c.req.valid("param").username, c.req.valid("json")), 200),
);
