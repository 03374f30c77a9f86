import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { WebhookAnswerSchema } from "@shared/contracts/money";
import { bodyLimit } from "hono/body-limit";
import { handleStripeWebhook } from "../../domain/money/providers/stripe-webhook";
import type { AppEnv } from "../../http/types";
import { json } from "../schemas";

/** Stripe's events are small, but a session with many line items can pass the API's 64 KiB. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * Provider webhooks, mounted before the API's JSON body limit: the signature covers the raw bytes, so the body
 * is read as text and parsed only once verified. Answers are for the provider, not translated.
 */
export const webhookRoutes = new OpenAPIHono<AppEnv>();

webhookRoutes.openapi(
  createRoute({
    method: "post",
    path: "/webhooks/stripe",
    tags: ["Money"],
    summary:
      "Stripe events (Stripe-Signature verified), each applied once: a paid Checkout Session credits the wallet; a refund or dispute reverses the top-up, a closed dispute is won or lost; 404 without STRIPE_WEBHOOK_SECRET",
    middleware: [
      bodyLimit({ maxSize: WEBHOOK_BODY_LIMIT, onError: (c) => c.json({ received: false, error: "too large" }, 413) }),
    ] as const,
    responses: {
      200: json(WebhookAnswerSchema, "Received: applied, already applied, or not about a top-up of ours"),
      400: json(WebhookAnswerSchema, "Bad signature (forged, stale, malformed) or payload; nothing changed"),
      404: json(WebhookAnswerSchema, "Stripe is not configured"),
      413: json(WebhookAnswerSchema, "Body over the webhook's limit"),
    },
  }),
  async (c) => {
    const secret = c.get("domain").config.STRIPE_WEBHOOK_SECRET;
    if (!secret) return c.json({ received: false, error: "not found" }, 404);
    const answer = await handleStripeWebhook(
      c.get("domain"),
      secret,
      c.req.header("Stripe-Signature"),
      await c.req.text(),
    );
    if (answer.status === 400) return c.json({ received: false, error: answer.reason }, 400);
    return c.json({ received: true, outcome: answer.outcome }, 200);
  },
);
