/**
 * The vault: every content file a creator has uploaded (for a post, a message, a story, a mass message, or straight
 * into the vault), in one library they reuse without uploading again, with albums. The creator's alone.
 * Answers of worker/api/routes/vault.ts; the page imports types only from here.
 */
import { z } from "zod";
import { message } from "../messages";
import { singleLineText } from "./text";
import { ErrorSchema } from "./common";

export const VAULT_KINDS = ["image", "video"] as const;
export const ALBUM_NAME_MAX = 40;

/** Where a vault item is used: what deleting it would take away. */
const VaultUseSchema = z
  .object({
    kind: z.enum(["post", "message", "mass", "story", "welcome"]),
    id: z.number().int().meta({
      description: "The post's, message's, mass message's or story's id; the creator's for the welcome message",
    }),
    conversationId: z.number().int().nullable().meta({ description: "A message's conversation; null otherwise" }),
  })
  .meta({ id: "VaultUse" });
export type VaultUse = z.infer<typeof VaultUseSchema>;

const VaultItemSchema = z
  .object({
    id: z.number().int().meta({ description: "The medium's id: what a post, message, story or mass message takes" }),
    kind: z.enum(VAULT_KINDS),
    url: z.string().meta({ description: "The owner's view of the file (/media/...)" }),
    thumbnailUrl: z.string().meta({ description: "A small image of it: a scaled copy or a video's poster frame" }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    createdAt: z.string(),
    albumIds: z.array(z.number().int()),
    useCount: z.number().int().meta({ description: "Posts, messages, mass messages and stories using it" }),
    /** Asked for one conversation (`conversation=`): whether its other member was sent it, and bought it. */
    sent: z.boolean().nullable().meta({ description: "With `conversation`: the fan was already sent it; else null" }),
    bought: z
      .boolean()
      .nullable()
      .meta({ description: "With `conversation`: the fan bought a message with it; else null" }),
  })
  .meta({ id: "VaultItem" });
export type VaultItem = z.infer<typeof VaultItemSchema>;

export const VaultPageSchema = z
  .object({
    items: z.array(VaultItemSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass back as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "VaultPage" });
export type VaultPage = z.infer<typeof VaultPageSchema>;

export const VaultAlbumSchema = z
  .object({ id: z.number().int(), name: z.string(), itemCount: z.number().int() })
  .meta({ id: "VaultAlbum" });
export type VaultAlbum = z.infer<typeof VaultAlbumSchema>;

export const VaultAlbumListSchema = z.object({ albums: z.array(VaultAlbumSchema) }).meta({ id: "VaultAlbumList" });

export const VaultUsesSchema = z.object({ uses: z.array(VaultUseSchema) }).meta({ id: "VaultUses" });

const ALBUM_NAME = message("Give the album a name of up to 40 characters.");

export const AlbumBodySchema = z.object({
  name: singleLineText({ message: ALBUM_NAME })
    .trim()
    .min(1, { message: ALBUM_NAME })
    .max(ALBUM_NAME_MAX, { message: ALBUM_NAME }),
});
export type AlbumBody = z.output<typeof AlbumBodySchema>;

/** DELETE /api/vault/{mediaId} refused (409): the error, and where the file is used. */
export const VaultItemInUseSchema = ErrorSchema.extend(VaultUsesSchema.shape).meta({ id: "VaultItemInUse" });
