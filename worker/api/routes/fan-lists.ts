import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import {
  FanDetailSchema,
  FanListBodySchema,
  FanListSummarySchema,
  FanListsSchema,
  FanMembershipsSchema,
  ListedFanPageSchema,
  ListedFansQuerySchema,
  ListRefSchema,
} from "@shared/contracts/fan-lists";
import { addFanToList } from "../../domain/fan-lists/add-fan-to-list";
import { createFanList } from "../../domain/fan-lists/create-fan-list";
import { deleteFanList } from "../../domain/fan-lists/delete-fan-list";
import { getFanDetail } from "../../domain/fan-lists/get-fan-detail";
import { listFanLists } from "../../domain/fan-lists/list-fan-lists";
import { listFanMemberships } from "../../domain/fan-lists/list-fan-memberships";
import { listListedFans } from "../../domain/fan-lists/list-listed-fans";
import { removeFanFromList } from "../../domain/fan-lists/remove-fan-from-list";
import { renameFanList } from "../../domain/fan-lists/rename-fan-list";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** /api/lists: a creator's lists of fans (the system's and their own), their fans, and one fan's detail. */
export const fanListRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

const ListMemberParams = IdParams.merge(UsernameParams);

fanListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/lists",
    tags: ["Fan lists"],
    summary:
      "The creator's lists with how many fans each holds: the system's (top spenders of 30 days), then their own",
    middleware: [requireSession] as const,
    responses: { 200: json(FanListsSchema, "The lists"), 401: e401, 403: e403 },
  }),
  async (c) => c.json(await listFanLists(c.get("domain").db, c.get("session").user), 200),
);

fanListRoutes.openapi(
  createRoute({
    method: "post",
    path: "/lists",
    tags: ["Fan lists"],
    summary: "Make a custom list (creators; at most 100, names unique)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(FanListBodySchema) },
    responses: { 201: json(FanListSummarySchema, "The new list"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await createFanList(c.get("domain").db, c.get("session").user, c.req.valid("json")), 201),
);

fanListRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/lists/{id}",
    tags: ["Fan lists"],
    summary: "Rename one of your lists",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(FanListBodySchema) },
    responses: { 200: json(FanListSummarySchema, "The list"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await renameFanList(c.get("domain").db, c.get("session").user, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

fanListRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/lists/{id}",
    tags: ["Fan lists"],
    summary: "Delete one of your lists (its fans stay your fans)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    await deleteFanList(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

// Before /lists/{ref}/fans, which "memberships/fans" would also match (and refuse: it is no list).
fanListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/lists/memberships/{username}",
    tags: ["Fan lists"],
    summary: 'Your lists, each saying whether it holds this member (an "Add to list" menu)',
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(FanMembershipsSchema, "Your lists"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await listFanMemberships(c.get("domain").db, c.get("session").user, c.req.valid("param").username), 200),
);

fanListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/lists/{ref}/fans",
    tags: ["Fan lists"],
    summary:
      "A page of one list's fans with what each spent with you and when they were last active, searchable by username or name (top spenders by spend)",
    middleware: [requireSession] as const,
    request: { params: z.object({ ref: ListRefSchema }), query: ListedFansQuerySchema },
    responses: { 200: json(ListedFanPageSchema, "A page"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await listListedFans(c.get("domain").db, c.get("session").user, c.req.valid("param").ref, c.req.valid("query")),
      200,
    ),
);

fanListRoutes.openapi(
  createRoute({
    method: "put",
    path: "/lists/{id}/fans/{username}",
    tags: ["Fan lists"],
    summary: "Put a fan (a follower, present or former subscriber) in one of your lists (idempotent)",
    middleware: [requireSession] as const,
    request: { params: ListMemberParams },
    responses: {
      200: json(FanMembershipsSchema, "Your lists, this one now holding the fan (the menu afresh)"),
      401: e401,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const { user } = c.get("session");
    const { id, username } = c.req.valid("param");
    await addFanToList(db, user, id, username);
    return c.json(await listFanMemberships(db, user, username), 200);
  },
);

fanListRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/lists/{id}/fans/{username}",
    tags: ["Fan lists"],
    summary: "Take a fan out of one of your lists (idempotent)",
    middleware: [requireSession] as const,
    request: { params: ListMemberParams },
    responses: { 204: { description: "Not in the list" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const { id, username } = c.req.valid("param");
    await removeFanFromList(c.get("domain").db, c.get("session").user, id, username);
    return c.body(null, 204);
  },
);

fanListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/fans/{username}",
    tags: ["Fan lists"],
    summary: "One of your fans: their subscription, what they spent with you by kind, and your conversation",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(FanDetailSchema, "The fan"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await getFanDetail(c.get("domain").db, c.get("session").user, c.req.valid("param").username), 200),
);
