import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import {
  getConversation,
  hideConversation,
  listConversations,
  markConversationRead,
  startConversation,
} from "../../domain/messages/conversations";
import { listChatMedia, listMessages } from "../../domain/messages/list-messages";
import { sendMessage } from "../../domain/messages/send-message";
import { unlockMessage } from "../../domain/messages/unlock-message";
import { SendMessageSchema, StartConversationSchema, UnlockMessageSchema } from "@shared/contracts/message-bodies";
import { sendTip } from "../../domain/money/send-tip";
import { TipSchema } from "@shared/contracts/money-bodies";
import { idText, positionText } from "@shared/contracts/text";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";
import {
  ChatMediaPageSchema,
  ConversationPageSchema,
  ConversationSchema,
  MessagePageSchema,
  PaidMessageSchema,
  ReadMarkSchema,
  SentMessageSchema,
} from "@shared/contracts/messages";

const { 401: e401, 402: e402, 403: e403, 409: e409, 422: e422 } = errorResponses;

const MessagesQuery = z.object({ before: idText.optional(), after: positionText.optional() });

export const messageRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

messageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/conversations",
    tags: ["Messages"],
    summary: "The caller's conversations, newest activity first (20 per page; `cursor` from the previous page)",
    middleware: [requireSession] as const,
    request: { query: z.object({ cursor: z.string().max(200).optional() }) },
    responses: { 200: json(ConversationPageSchema, "A page of conversations"), 401: e401, 422: e422 },
  }),
  async (c) =>
    c.json(await listConversations(c.get("domain"), c.get("session").user, c.req.valid("query").cursor), 200),
);

messageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/conversations",
    tags: ["Messages"],
    summary: "Open the conversation with a member, making it if the caller may write to them",
    middleware: [requireSession] as const,
    request: { body: jsonBody(StartConversationSchema) },
    responses: { 200: json(ConversationSchema, "The conversation"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await startConversation(c.get("domain"), c.get("session").user, c.req.valid("json").username), 200),
);

messageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}",
    tags: ["Messages"],
    summary: "One conversation of the caller",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(ConversationSchema, "The conversation"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await getConversation(c.get("domain"), c.get("session").user, c.req.valid("param").id), 200),
);

messageRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/conversations/{id}",
    tags: ["Messages"],
    summary: "Remove the conversation from the caller's list (it returns with the next message)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Removed" }, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    await hideConversation(c.get("domain"), c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

messageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/messages",
    tags: ["Messages"],
    summary: "Messages, oldest first: the newest 30, `before` an older page, `after` what came since a seq",
    middleware: [requireSession] as const,
    request: { params: IdParams, query: MessagesQuery },
    responses: { 200: json(MessagePageSchema, "A page of messages"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await listMessages(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("query")),
      200,
    ),
);

messageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/messages",
    tags: ["Messages"],
    summary:
      "Send a message (text up to 2,000 characters and/or up to 10 uploaded files; creators may set a price). A fan writing to a creator pays the per-message price; the same clientId twice stores one message",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(SendMessageSchema) },
    responses: {
      200: json(SentMessageSchema, "Sent (or the earlier send with this clientId)"),
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
      await sendMessage(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

messageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/tips",
    tags: ["Messages", "Money"],
    summary:
      "Tip the creator of the conversation from the wallet; the tip (with its optional note) is a message in the thread. Needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(TipSchema) },
    responses: {
      200: json(PaidMessageSchema, "The tip's payment and its message"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const { message, ...tip } = await sendTip(
      c.get("domain"),
      c.get("session").user,
      { conversationId: c.req.valid("param").id },
      c.req.valid("json"),
    );
    return c.json({ ...tip, message: message! }, 200);
  },
);

messageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/read",
    tags: ["Messages"],
    summary:
      'Mark the conversation read up to its newest message (clears its unread count; the other member sees "Seen")',
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(ReadMarkSchema, "Read"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await markConversationRead(c.get("domain"), c.get("session").user, c.req.valid("param").id), 200),
);

messageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/messages/{id}/unlock",
    tags: ["Messages", "Money"],
    summary: "Buy a pay-per-view message from the wallet (once; an idempotency key makes retries safe)",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(UnlockMessageSchema) },
    responses: {
      200: json(PaidMessageSchema, "Unlocked"),
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
      await unlockMessage(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

messageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/media",
    tags: ["Messages"],
    summary:
      "Chat media: the photos and videos of a conversation, newest first (locked ones as previews); `before` a message seq",
    middleware: [requireSession] as const,
    request: { params: IdParams, query: z.object({ before: idText.optional() }) },
    responses: {
      200: json(ChatMediaPageSchema, "A page of chat media"),
      401: e401,
      404: e404,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await listChatMedia(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("query").before),
      200,
    ),
);
