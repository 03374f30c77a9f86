import type { CommentView } from "@shared/contracts/posts";
import { boolean, number, object, string, type Shape } from "@shared/shape";

/** A comment as the API answers it (the comments list, and the outbox's comment sent later). */
export const commentShape: Shape<CommentView> = object({
  id: number,
  postId: number,
  text: string,
  createdAt: string,
  author: object({ id: number, username: string, name: string, avatarUrl: string }),
  canDelete: boolean,
});
