/**
 * The upload protocol's answers (worker/api/routes/uploads.ts): written by worker/domain/media, checked by the page
 * from app/lib/upload-shapes.ts, generated from these schemas. Then the bodies of starting an upload and of making
 * one a profile image. The page imports types only from here.
 */
import { z } from "zod";
import { message } from "../messages";
import { RenditionUploadSchema } from "./renditions";
import { idNumber, singleLineText } from "./text";

export const CreatedUploadSchema = z
  .object({
    mediaId: z.number().int(),
    partSize: z.number().int().meta({ description: "Every part's size in bytes but the last one's" }),
    partCount: z.number().int(),
    stream: z.object({ uploadUrl: z.string() }).nullable().default(null).meta({
      description:
        "With Cloudflare Stream (VIDEO_PIPELINE=stream), a video's bytes go to this tus URL instead of /uploads/{id}/parts; null otherwise",
    }),
    watermark: z.string().nullable().default(null).meta({
      description:
        "The mark to draw into every copy of this photo fans get (the creator's profile address): its copies 640 and 1280 wide and a full-size copy (PUT /uploads/{id}/marked), which completing requires; null: no mark",
    }),
  })
  .meta({ id: "CreatedUpload" });
export type CreatedUpload = z.infer<typeof CreatedUploadSchema>;

export const UploadStatusSchema = z
  .object({
    status: z.enum(["uploading", "ready", "failed"]),
    partSize: z.number().int(),
    partCount: z.number().int(),
    receivedParts: z
      .array(z.number().int())
      .meta({ description: "Parts stored so far; a resumed upload sends the others" }),
    postId: z.number().int().nullable().meta({
      description: "The first post using the file, if any (a composer resumes only files no post has taken yet)",
    }),
    renditions: z
      .array(RenditionUploadSchema)
      .default([])
      .meta({ description: "A video's renditions started so far, each with the parts received" }),
    watermark: z.string().nullable().default(null).meta({
      description:
        "The mark to draw into every copy of this photo fans get (the creator's profile address): its copies 640 and 1280 wide and a full-size copy (PUT /uploads/{id}/marked), which completing requires; null: no mark",
    }),
  })
  .meta({ id: "UploadStatus" });
export type UploadStatus = z.infer<typeof UploadStatusSchema>;

/** A stored file, to attach to a post, a message, a story, a profile or a creator request. */
export const UploadedMediaSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(["image", "video"]),
    url: z.string().meta({
      description:
        "Where the uploader can see it (/media/...); private objects are served to their owner and admins only",
    }),
  })
  .meta({ id: "UploadedMedia" });
export type UploadedMedia = z.infer<typeof UploadedMediaSchema>;

export const StoredPartSchema = z.object({ partNumber: z.number().int() }).meta({ id: "StoredPart" });

/** An image stored beside an upload (poster, preview, scaled copy) or made the profile's avatar or cover. */
export const StoredImageSchema = z.object({ url: z.string() }).meta({ id: "StoredImage" });

/**
 * What a file is uploaded for. "message" (chat media, any member) and "story" (a creator's story) are stored as
 * purpose 'post': content media (worker/domain/media/uploads.ts).
 */
const UPLOAD_PURPOSES = ["post", "message", "story", "avatar", "cover", "id_document", "id_selfie"] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

const EMPTY_FILE = message("This file is empty. Choose a file that has something in it.");

/** What the file is declared to be; its bytes are checked as they arrive. */
export const CreateUploadBodySchema = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  fileName: singleLineText().trim().min(1).max(255),
  contentType: singleLineText().trim().min(1).max(100),
  size: z.number().int().positive({ message: EMPTY_FILE }).max(Number.MAX_SAFE_INTEGER),
});
export type CreateUploadInput = z.output<typeof CreateUploadBodySchema>;

/** An uploaded image to make the profile's avatar or cover. */
export const ProfileImageBodySchema = z.object({ mediaId: idNumber });
