import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { idText } from "@shared/contracts/text";
import {
  AlbumBodySchema,
  VAULT_KINDS,
  VaultAlbumListSchema,
  VaultAlbumSchema,
  VaultPageSchema,
} from "@shared/contracts/vault";
import { addToAlbum } from "../../domain/vault/add-to-album";
import { createAlbum } from "../../domain/vault/create-album";
import { deleteAlbum } from "../../domain/vault/delete-album";
import { listAlbums } from "../../domain/vault/list-albums";
import { listVault } from "../../domain/vault/list-vault";
import { removeFromAlbum } from "../../domain/vault/remove-from-album";
import { renameAlbum } from "../../domain/vault/rename-album";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { cursorQuery, e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** The vault's library: the creator's files, filtered and paged, and their albums. Creators only. */
export const vaultRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

const AlbumItemParams = z.object({ id: idText, mediaId: idText });

vaultRoutes.openapi(
  createRoute({
    method: "get",
    path: "/vault",
    tags: ["Vault"],
    summary:
      "The creator's finished content files, newest first (keyset pages), by kind and album; with `conversation`, whether its other member was sent each and bought it",
    middleware: [requireSession] as const,
    request: {
      query: z.object({
        kind: z.enum(VAULT_KINDS).optional(),
        album: idText.optional(),
        conversation: idText.optional(),
        cursor: cursorQuery("cursor"),
      }),
    },
    responses: { 200: json(VaultPageSchema, "A page"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const { kind, album, conversation, cursor } = c.req.valid("query");
    const page = await listVault(c.get("domain").db, c.get("session").user, {
      kind: kind ?? null,
      albumId: album ?? null,
      conversationId: conversation ?? null,
      cursor,
    });
    return c.json(page, 200);
  },
);

vaultRoutes.openapi(
  createRoute({
    method: "get",
    path: "/vault/albums",
    tags: ["Vault"],
    summary: "The creator's albums, oldest first, with how many files each holds",
    middleware: [requireSession] as const,
    responses: { 200: json(VaultAlbumListSchema, "The albums"), 401: e401, 403: e403 },
  }),
  async (c) => c.json(await listAlbums(c.get("domain").db, c.get("session").user), 200),
);

vaultRoutes.openapi(
  createRoute({
    method: "post",
    path: "/vault/albums",
    tags: ["Vault"],
    summary: "Make an empty album",
    middleware: [requireSession] as const,
    request: { body: jsonBody(AlbumBodySchema) },
    responses: { 201: json(VaultAlbumSchema, "Made"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await createAlbum(c.get("domain").db, c.get("session").user, c.req.valid("json")), 201),
);

vaultRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/vault/albums/{id}",
    tags: ["Vault"],
    summary: "Rename one's album",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(AlbumBodySchema) },
    responses: { 200: json(VaultAlbumSchema, "Renamed"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const album = await renameAlbum(
      c.get("domain").db,
      c.get("session").user,
      c.req.valid("param").id,
      c.req.valid("json"),
    );
    return c.json(album, 200);
  },
);

vaultRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/vault/albums/{id}",
    tags: ["Vault"],
    summary: "Delete one's album; its files stay in the vault",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    await deleteAlbum(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

vaultRoutes.openapi(
  createRoute({
    method: "put",
    path: "/vault/albums/{id}/items/{mediaId}",
    tags: ["Vault"],
    summary: "Put a vault file in one's album (again: nothing changes)",
    middleware: [requireSession] as const,
    request: { params: AlbumItemParams },
    responses: { 200: json(VaultAlbumSchema, "In the album"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const { id, mediaId } = c.req.valid("param");
    return c.json(await addToAlbum(c.get("domain").db, c.get("session").user, id, mediaId), 200);
  },
);

vaultRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/vault/albums/{id}/items/{mediaId}",
    tags: ["Vault"],
    summary: "Take a file out of one's album; it stays in the vault",
    middleware: [requireSession] as const,
    request: { params: AlbumItemParams },
    responses: { 204: { description: "Not in the album" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const { id, mediaId } = c.req.valid("param");
    await removeFromAlbum(c.get("domain").db, c.get("session").user, id, mediaId);
    return c.body(null, 204);
  },
);
