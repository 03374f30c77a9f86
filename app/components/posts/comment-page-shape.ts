// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { CommentPage } from "@shared/contracts/posts";
import { commentShape } from "~/lib/comment-shape";
import { array, nullable, object, string, type Shape } from "@shared/shape";

export const commentPageShape: Shape<CommentPage> = object({
  comments: array(commentShape),
  nextCursor: nullable(string),
});
