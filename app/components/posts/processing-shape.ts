// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { ProcessingPostPage } from "@shared/contracts/posts";
import { postFields } from "~/lib/api-shapes";
import { array, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";

export const processingPostPageShape: Shape<ProcessingPostPage> = object({
  posts: array(
    object({
      ...postFields,
      uploads: array(
        object({ id: number, kind: oneOf("image", "video"), status: oneOf("uploading", "ready", "failed") }),
      ),
    }),
  ),
  nextCursor: nullable(string),
});
