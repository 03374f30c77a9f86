// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { CommentView, LikeState } from "@shared/contracts/posts";
import { boolean, number, object, string, type Shape } from "@shared/shape";

export const commentShape: Shape<CommentView> = object({
  id: number,
  postId: number,
  text: string,
  createdAt: string,
  author: object({ id: number, username: string, name: string, avatarUrl: string }),
  canDelete: boolean,
});

export const commentAnswerShape: Shape<{ comment: CommentView }> = object({ comment: commentShape });

export const likeStateShape: Shape<LikeState> = object({ liked: boolean, likeCount: number });

export const bookmarkStateShape: Shape<{ bookmarked: boolean }> = object({ bookmarked: boolean });
