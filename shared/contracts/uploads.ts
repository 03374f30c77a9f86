/**
 * The upload protocol's answers (worker/api/routes/uploads.ts): written by worker/domain/media, checked by the page
 * from app/lib/upload-shapes.ts, generated from these schemas. The page imports types only from here.
 */
import { z } from "zod";

export const CreatedUploadSchema = z
  .object({
    mediaId: z.number().int(),
    partSize: z.number().int().meta({ description: "Every part's size in bytes but the last one's" }),
    partCount: z.number().int(),
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
    postId: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The post the file is attached to, if any (a composer resumes only files not posted yet)" }),
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
