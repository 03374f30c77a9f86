// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { VaultAlbum, VaultPage, VaultUse } from "@shared/contracts/vault";
import { array, boolean, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";

export const vaultPageShape: Shape<VaultPage> = object({
  items: array(
    object({
      id: number,
      kind: oneOf("image", "video"),
      url: string,
      thumbnailUrl: string,
      width: nullable(number),
      height: nullable(number),
      durationMs: nullable(number),
      createdAt: string,
      albumIds: array(number),
      useCount: number,
      sent: nullable(boolean),
      bought: nullable(boolean),
    }),
  ),
  nextCursor: nullable(string),
});

export const vaultAlbumShape: Shape<VaultAlbum> = object({ id: number, name: string, itemCount: number });

export const vaultAlbumListShape: Shape<{ albums: VaultAlbum[] }> = object({ albums: array(vaultAlbumShape) });

export const vaultUsesShape: Shape<{ uses: VaultUse[] }> = object({
  uses: array(
    object({
      kind: oneOf("post", "message", "mass", "story", "welcome"),
      id: number,
      conversationId: nullable(number),
    }),
  ),
});
