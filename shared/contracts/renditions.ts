/**
 * The schemas of a video's renditions (the limits are plain constants in ./rendition-specs.ts). The page imports
 * types only from here.
 */
import { z } from "zod";
import { RENDITION_CONTENT_TYPES, RENDITION_NAMES } from "./rendition-specs";

/** One rendition the viewer may play, under the same rule as the original's `url`. */
export const RenditionViewSchema = z
  .object({
    name: z.enum(RENDITION_NAMES),
    url: z.string(),
    type: z.string().meta({ description: 'The MIME type with codecs, e.g. video/mp4; codecs="avc1.42e01e,mp4a.40.2"' }),
    width: z.number().int(),
    height: z.number().int(),
    bitrate: z.number().int().meta({ description: "Average bits per second over the whole file" }),
  })
  .meta({ id: "Rendition" });
export type RenditionView = z.infer<typeof RenditionViewSchema>;

/** What a video item of a post, message or story carries besides the original's url and poster. */
export const videoPlaybackFields = {
  renditions: z.array(RenditionViewSchema).default([]).meta({
    description: "Smaller copies of a video, lowest first; empty for photos, and for videos without renditions",
  }),
  hlsUrl: z.string().nullable().default(null).meta({
    description: "With Cloudflare Stream (VIDEO_PIPELINE=stream): the signed HLS manifest; null otherwise",
  }),
};

/** Starting a rendition's upload: what the file is declared to be; the bytes are checked as they arrive and at the end. */
export const CreateRenditionBodySchema = z.object({
  contentType: z.enum(RENDITION_CONTENT_TYPES),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type CreateRenditionInput = z.output<typeof CreateRenditionBodySchema>;

/** Where one rendition's upload stands (GET /uploads/{id}), so that a resumed upload sends only missing parts. */
export const RenditionUploadSchema = z
  .object({
    name: z.enum(RENDITION_NAMES),
    status: z.enum(["uploading", "ready"]),
    size: z.number().int(),
    partCount: z.number().int(),
    receivedParts: z.array(z.number().int()),
  })
  .meta({ id: "RenditionUpload" });
export type RenditionUpload = z.infer<typeof RenditionUploadSchema>;
