import { publicMediaUrl } from "../accounts/users";
import type { CommentView } from "@shared/contracts/posts";
export type { CommentView };

export interface CommentRow {
  id: number;
  post_id: number;
  text: string;
  created_at: string;
  user_id: number;
  post_author_id: number;
  username: string;
  name: string;
  avatar_key: string | null;
}

export const COMMENT_SELECT_SQL = `SELECT c.id, c.post_id, c.text, c.created_at, c.user_id, p.user_id AS post_author_id, u.username, u.name, u.avatar_key
  FROM comments c JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = c.user_id`;

export const presentComment = (row: CommentRow, viewerId: number | null): CommentView => ({
  id: row.id,
  postId: row.post_id,
  text: row.text,
  createdAt: row.created_at,
  author: { id: row.user_id, username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) },
  canDelete: viewerId !== null && (viewerId === row.user_id || viewerId === row.post_author_id),
});
