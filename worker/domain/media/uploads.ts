import { AppError, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import type { UploadPurpose } from "@shared/contracts/uploads";
import type { MediaKind } from "./file-types";

/**
 * Where an upload's purpose is stored: "message" and "story" as 'post' (content media: the vault's files, which any
 * post, message or story of their uploader may use, docs/decisions/vault.md). A story's file keeps its own prefix
 * (stories/); /media reads both prefixes under one rule.
 */
export type StoredPurpose = Exclude<UploadPurpose, "message" | "story">;
export const storedPurposeOf = (purpose: UploadPurpose): StoredPurpose =>
  purpose === "message" || purpose === "story" ? "post" : purpose;

const UNSUPPORTED_TYPE = message("This file type is not supported.");
const UPLOAD_NOT_FOUND = message("This upload does not exist.");
export const UPLOAD_LOST = message("The upload could not be finished. Please upload the file again.");

export const unsupportedType = () => fieldError("file", UNSUPPORTED_TYPE);

/** One row of `media`, as the upload commands read it. */
export interface UploadRow {
  id: number;
  user_id: number;
  purpose: StoredPurpose;
  kind: MediaKind;
  status: "uploading" | "ready" | "failed";
  object_key: string;
  content_type: string;
  size_bytes: number;
  upload_id: string | null;
  poster_key: string | null;
  preview_key: string | null;
  w640_key: string | null;
  w1280_key: string | null;
  /** The mark drawn into the photo's copies for fans ("example.com/alice"), fixed at its start; null: unmarked. */
  watermark: string | null;
  /** A marked photo's full-size marked copy, which everyone but the uploader gets instead of object_key. */
  marked_key: string | null;
  /** A video's length as its file states it, read when its upload completes (null: not stated, or not a video). */
  duration_ms: number | null;
  /** With VIDEO_PIPELINE=stream, the video's id in Cloudflare Stream, which keeps the file (no object at object_key). */
  stream_uid: string | null;
}

/**
 * The columns of `media` that name what is stored for it, R2 objects and a Stream video: what deleting a medium
 * deletes (discard-media.ts).
 */
export const STORED_KEY_COLUMNS = "object_key, poster_key, preview_key, w640_key, w1280_key, marked_key, stream_uid";
export type StoredKeys = Pick<
  UploadRow,
  "object_key" | "poster_key" | "preview_key" | "w640_key" | "w1280_key" | "marked_key" | "stream_uid"
>;
export const storedKeysOf = (rows: StoredKeys[]) =>
  rows
    .flatMap((row) => [row.object_key, row.poster_key, row.preview_key, row.w640_key, row.w1280_key, row.marked_key])
    .filter((key): key is string => key !== null);

/** The uploader's own media row; anyone else's, or none, is "not found" (ownership is part of the query). */
export async function findOwnUpload(db: D1Database, userId: number, mediaId: number): Promise<UploadRow> {
  const row = await db
    .prepare("SELECT * FROM media WHERE id = ? AND user_id = ?")
    .bind(mediaId, userId)
    .first<UploadRow>();
  if (!row) throw new AppError("not_found", UPLOAD_NOT_FOUND);
  return row;
}

/** Where each purpose lives in R2: /media serves public/ to anyone, posts/ by entitlement, private/ to admins. */
const PREFIX_OF: Record<UploadPurpose, string> = {
  post: "posts",
  message: "posts",
  story: "stories",
  avatar: "public",
  cover: "public",
  id_document: "private",
  id_selfie: "private",
};

const randomHex = () =>
  [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Whether an object is a story's file (under the story purpose's prefix): its variants live under it too. */
export const isStoryObject = (objectKey: string) => objectKey.startsWith(`${PREFIX_OF.story}/`);

/** A key nobody can guess or choose: 128 random bits under the purpose's prefix. */
export const newObjectKey = (purpose: UploadPurpose, extension: string) =>
  `${PREFIX_OF[purpose]}/${randomHex()}.${extension}`;

/**
 * A poster frame, preview, scaled or marked copy of a file: a story's poster sits under stories/posters/ (beside its
 * file); a copy 640 pixels wide under scaled/640/; a full-size marked copy under marked/. /media reads every
 * prefix of a content file under one rule, so a story's file used in a post gets its preview and copies as any.
 */
export const newVariantKey = (
  variant: "poster" | "preview" | "w640" | "w1280" | "marked",
  extension: string,
  objectKey = "",
) =>
  variant === "w640" || variant === "w1280"
    ? `scaled/${variant.slice(1)}/${randomHex()}.${extension}`
    : variant === "marked"
      ? `marked/${randomHex()}.${extension}`
      : `${variant === "poster" && isStoryObject(objectKey) ? `${PREFIX_OF.story}/` : ""}${variant}s/${randomHex()}.${extension}`;

/** A video's rendition: under stories/renditions/ for a story's video (its /media policy is the story's), else renditions/. */
export const newRenditionKey = (objectKey: string, extension: string) =>
  `${isStoryObject(objectKey) ? `${PREFIX_OF.story}/` : ""}renditions/${randomHex()}.${extension}`;

export const mediaUrl = (key: string) => `/media/${key}`;
