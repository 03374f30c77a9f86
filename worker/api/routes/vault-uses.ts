import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { VaultItemInUseSchema, VaultUsesSchema } from "@shared/contracts/vault";
import { idText } from "@shared/contracts/text";
import { message } from "@shared/messages";
import { AppError } from "../../domain/shared/errors";
import { deleteVaultItem } from "../../domain/vault/delete-vault-item";
import { listVaultItemUses } from "../../domain/vault/list-vault-item-uses";
import { translateError } from "../../http/errors";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

const VAULT_ITEM_IN_USE = message("This file is still used: remove it from where it is used first.");

const MediaParams = z.object({ mediaId: idText });

/** Where a vault file is used, and its deletion, which only an unused file allows (docs/decisions/vault.md). */
export const vaultUseRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

vaultUseRoutes.openapi(
  createRoute({
    method: "get",
    path: "/vault/{mediaId}/uses",
    tags: ["Vault"],
    summary: "Where one's vault file is used: posts, messages, mass messages, a story",
    middleware: [requireSession] as const,
    request: { params: MediaParams },
    responses: { 200: json(VaultUsesSchema, "Its uses"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const uses = await listVaultItemUses(db, c.get("session").user.id, c.req.valid("param").mediaId);
    return c.json({ uses }, 200);
  },
);

vaultUseRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/vault/{mediaId}",
    tags: ["Vault"],
    summary: "Delete a file from one's vault, with every copy stored for it; refused while anything uses it",
    middleware: [requireSession] as const,
    request: { params: MediaParams },
    responses: {
      204: { description: "Deleted, with its stored objects" },
      401: e401,
      403: e403,
      404: e404,
      409: json(VaultItemInUseSchema, "Still used: nothing was deleted; `uses` says where"),
      422: e422,
    },
  }),
  async (c) => {
    const domain = c.get("domain");
    const outcome = await deleteVaultItem(domain, c.get("session").user.id, c.req.valid("param").mediaId);
    if (outcome.deleted) return c.body(null, 204);
    return c.json(
      { ...translateError(domain.t, new AppError("conflict", VAULT_ITEM_IN_USE)), uses: outcome.uses },
      409,
    );
  },
);
