// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { CreatedUpload, UploadStatus, UploadedMedia } from "@shared/contracts/uploads";
import { array, nullable, number, object, oneOf, orDefault, string, type Shape } from "@shared/shape";

export const createdUploadShape: Shape<CreatedUpload> = object({
  mediaId: number,
  partSize: number,
  partCount: number,
  stream: orDefault(nullable(object({ uploadUrl: string })), () => null),
  watermark: orDefault(nullable(string), () => null),
});

export const uploadStatusShape: Shape<UploadStatus> = object({
  status: oneOf("uploading", "ready", "failed"),
  partSize: number,
  partCount: number,
  receivedParts: array(number),
  postId: nullable(number),
  renditions: orDefault(
    array(
      object({
        name: oneOf("360p", "720p"),
        status: oneOf("uploading", "ready"),
        size: number,
        partCount: number,
        receivedParts: array(number),
      }),
    ),
    () => [],
  ),
  watermark: orDefault(nullable(string), () => null),
});

export const uploadedMediaShape: Shape<UploadedMedia> = object({
  id: number,
  kind: oneOf("image", "video"),
  url: string,
});
