import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  CreatedUploadSchema,
  CreateUploadBodySchema,
  ProfileImageBodySchema,
  StoredImageSchema,
  StoredPartSchema,
  UploadedMediaSchema,
  UploadStatusSchema,
} from "@shared/contracts/uploads";
import { RENDITION_NAMES, RENDITION_SPECS } from "@shared/contracts/rendition-specs";
import { CreateRenditionBodySchema, RenditionViewSchema } from "@shared/contracts/renditions";
import { completeUpload } from "../../domain/media/complete-upload";
import { createUpload } from "../../domain/media/create-upload";
import { deleteUpload } from "../../domain/media/delete-upload";
import { getUpload } from "../../domain/media/get-upload";
import { MAX_VIDEO_BYTES, PART_SIZE } from "../../domain/media/limits";
import { MAX_VARIANT_BYTES, putMediaVariant, type MediaVariant } from "../../domain/media/put-media-variant";
import { completeRendition } from "../../domain/media/renditions/complete-rendition";
import { startRendition } from "../../domain/media/renditions/start-rendition";
import { uploadRenditionPart } from "../../domain/media/renditions/upload-rendition-part";
import { uploadPart } from "../../domain/media/upload-part";
import { setProfileImage, type ProfileImage } from "../../domain/media/set-profile-image";
import { AppError } from "../../domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { idText } from "@shared/contracts/text";
import { errorResponse, TOO_LARGE } from "../../http/errors";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 413: e413, 422: e422 } = errorResponses;
const e404 = { ...errorResponses[422], description: "No upload of yours with this id" };

const rawBody = (description: string) => ({
  required: true,
  description,
  content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
});

const tooLarge = (maxSize: number): MiddlewareHandler<AppEnv> =>
  bodyLimit({ maxSize, onError: (c) => errorResponse(c as Context<AppEnv>, new AppError("too_large", TOO_LARGE)) });

const RenditionParams = IdParams.extend({ name: z.enum(RENDITION_NAMES) });
const partNumberParam = idText.refine((n) => n <= 10000, { message: INVALID_VALUE });
const RENDITION_LIMITS = RENDITION_NAMES.map(
  (name) =>
    `${name}: shorter side at most ${RENDITION_SPECS[name].shortSide} px, at most ${RENDITION_SPECS[name].maxBitrate} bit/s`,
).join("; ");

/** JSON calls of the upload protocol (under the API's 64 KiB body limit). */
export const uploadRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

uploadRoutes.openapi(
  createRoute({
    method: "post",
    path: "/uploads",
    tags: ["Media"],
    summary: "Start an upload: what the file is declared to be; the bytes are checked as they arrive",
    description:
      "Images (JPEG, PNG, WebP, GIF) up to 20 MB, videos (MP4, QuickTime, WebM) up to 2 GB and only for post media. Post media needs a creator; avatars, covers and ID documents any member. Send the parts with PUT /uploads/{id}/parts/{n}; with VIDEO_PIPELINE=stream a video's bytes go with tus to `stream.uploadUrl` instead (partCount 0).",
    middleware: [requireSession] as const,
    request: {
      body: jsonBody(CreateUploadBodySchema),
    },
    responses: {
      201: json(CreatedUploadSchema, "Upload started"),
      401: e401,
      403: e403,
      409: { ...e409, description: "With VIDEO_PIPELINE=stream: Cloudflare Stream could not be reached" },
      413: e413,
      422: e422,
    },
  }),
  async (c) => c.json(await createUpload(c.get("domain"), c.get("session").user, c.req.valid("json")), 201),
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/uploads/{id}",
    tags: ["Media"],
    summary: "Where an upload stands: its status and the parts received so far",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(UploadStatusSchema, "The upload"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await getUpload(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id), 200),
);

uploadRoutes.openapi(
  createRoute({
    method: "post",
    path: "/uploads/{id}/complete",
    tags: ["Media"],
    summary: "Assemble the parts; images are stripped of their metadata (EXIF, GPS, XMP, comments)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(UploadedMediaSchema, "The stored file"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await completeUpload(c.get("domain"), c.get("session").user.id, c.req.valid("param").id), 200),
);

uploadRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/uploads/{id}",
    tags: ["Media"],
    summary: "Abort an upload or delete a file not attached to a post",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    await deleteUpload(c.get("domain"), c.get("session").user.id, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "post",
    path: "/uploads/{id}/renditions/{name}",
    tags: ["Media"],
    summary: "Start uploading a smaller copy of a video, made by the browser; starting again replaces it",
    description: `For the uploader's video of a post, message or story (being uploaded or ready). Fast-start MP4 (H.264, AAC) or WebM (VP9 or VP8, Opus); ${RENDITION_LIMITS}. Send the parts with PUT /uploads/{id}/renditions/{name}/parts/{n}, then complete it.`,
    middleware: [requireSession] as const,
    request: { params: RenditionParams, body: jsonBody(CreateRenditionBodySchema) },
    responses: {
      201: json(CreatedUploadSchema, "Rendition upload started"),
      401: e401,
      403: e403,
      404: e404,
      413: e413,
      422: e422,
    },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    return c.json(await startRendition(c.get("domain"), c.get("session").user.id, id, name, c.req.valid("json")), 201);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "post",
    path: "/uploads/{id}/renditions/{name}/complete",
    tags: ["Media"],
    summary: "Assemble a rendition's parts and check its bytes; one that breaks a rule is deleted (422)",
    description:
      "Read from the file: container and codecs, fast start, the picture's size, its length (which must match the original's when known) and its average bitrate.",
    middleware: [requireSession] as const,
    request: { params: RenditionParams },
    responses: {
      200: json(RenditionViewSchema, "The rendition, ready"),
      401: e401,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    return c.json(await completeRendition(c.get("domain"), c.get("session").user.id, id, name), 200);
  },
);

for (const which of ["avatar", "cover"] as const satisfies readonly ProfileImage[]) {
  uploadRoutes.openapi(
    createRoute({
      method: "post",
      path: `/me/${which}`,
      tags: ["Media"],
      summary: `Make an uploaded image (purpose ${which}) the profile's ${which}; the previous one is deleted`,
      middleware: [requireSession] as const,
      request: { body: jsonBody(ProfileImageBodySchema) },
      responses: {
        200: json(StoredImageSchema, "The new image's URL"),
        401: e401,
        403: e403,
        404: e404,
        422: e422,
      },
    }),
    async (c) =>
      c.json(await setProfileImage(c.get("domain"), c.get("session").user.id, c.req.valid("json").mediaId, which), 200),
  );
}

/**
 * Calls that carry file bytes, mounted before the API's 64 KiB body limit: each sets its own limit (a part,
 * a poster, a preview). No JSON here, so nothing else is parsed.
 */
export const uploadBodyRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
uploadBodyRoutes.use("/uploads/*", async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
});

uploadBodyRoutes.openapi(
  createRoute({
    method: "put",
    path: "/uploads/{id}/parts/{partNumber}",
    tags: ["Media"],
    summary: `Send part n (1-based) of the file: exactly partSize bytes (${PART_SIZE}), the last one the rest`,
    description: `The first part must come first: its magic bytes must match the declared type, or the upload is discarded (422). Files up to ${MAX_VIDEO_BYTES} bytes.`,
    middleware: [requireSession, tooLarge(PART_SIZE)] as const,
    request: {
      params: IdParams.extend({ partNumber: partNumberParam }),
      body: rawBody("The part's bytes"),
    },
    responses: {
      200: json(StoredPartSchema, "Stored"),
      401: e401,
      403: e403,
      404: e404,
      413: e413,
      422: e422,
    },
  }),
  async (c) => {
    const { id, partNumber } = c.req.valid("param");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    await uploadPart(c.get("domain"), c.get("session").user.id, id, partNumber, bytes);
    return c.json({ partNumber }, 200);
  },
);

uploadBodyRoutes.openapi(
  createRoute({
    method: "put",
    path: "/uploads/{id}/renditions/{name}/parts/{partNumber}",
    tags: ["Media"],
    summary: `Send part n (1-based) of a rendition: exactly partSize bytes (${PART_SIZE}), the last one the rest`,
    description:
      "The first part must come first: its magic bytes must be the declared container's (MP4 or WebM), or the rendition is discarded (422).",
    middleware: [requireSession, tooLarge(PART_SIZE)] as const,
    request: {
      params: RenditionParams.extend({ partNumber: partNumberParam }),
      body: rawBody("The part's bytes"),
    },
    responses: {
      200: json(StoredPartSchema, "Stored"),
      401: e401,
      403: e403,
      404: e404,
      413: e413,
      422: e422,
    },
  }),
  async (c) => {
    const { id, name, partNumber } = c.req.valid("param");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    await uploadRenditionPart(c.get("domain"), c.get("session").user.id, id, name, partNumber, bytes);
    return c.json({ partNumber }, 200);
  },
);

const VARIANT_SUMMARY: Record<MediaVariant, string> = {
  poster: `A video's poster frame made by the browser: JPEG, PNG, WebP or GIF, at most ${MAX_VARIANT_BYTES.poster} bytes`,
  preview: `The small blurred preview shown on locked posts: JPEG, PNG, WebP or GIF, at most ${MAX_VARIANT_BYTES.preview} bytes`,
  w640: `A copy of a photo exactly 640 pixels wide, made by the browser when the photo is wider, at most ${MAX_VARIANT_BYTES.w640} bytes`,
  w1280: `A copy of a photo exactly 1280 pixels wide, made by the browser when the photo is wider, at most ${MAX_VARIANT_BYTES.w1280} bytes`,
  marked: `A marked photo's full-size copy with the mark drawn in (its upload's watermark), the original's exact pixel size, at most ${MAX_VARIANT_BYTES.marked} bytes: what everyone but the creator gets`,
};

for (const variant of ["poster", "preview", "w640", "w1280", "marked"] as const satisfies readonly MediaVariant[]) {
  uploadBodyRoutes.openapi(
    createRoute({
      method: "put",
      path: `/uploads/{id}/${variant}`,
      tags: ["Media"],
      summary: VARIANT_SUMMARY[variant],
      middleware: [requireSession, tooLarge(MAX_VARIANT_BYTES[variant])] as const,
      request: { params: IdParams, body: rawBody("The image's bytes") },
      responses: {
        200: json(StoredImageSchema, "Stored"),
        401: e401,
        403: e403,
        404: e404,
        413: e413,
        422: e422,
      },
    }),
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      return c.json(
        await putMediaVariant(c.get("domain"), c.get("session").user.id, c.req.valid("param").id, variant, bytes),
        200,
      );
    },
  );
}
