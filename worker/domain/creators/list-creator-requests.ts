import { publicMediaUrl } from "../accounts/users";
import type { PendingCreatorRequest } from "@shared/contracts/moderation";
export { type PendingCreatorRequest };

const privateMediaUrl = (key: string | null) => (key ? `/media/${key}` : "");

/** Oldest first, so the queue is worked in order. */
export async function listPendingCreatorRequests(db: D1Database): Promise<PendingCreatorRequest[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.created_at, u.id AS user_id, u.username, u.name, u.email, u.date_of_birth, u.avatar_key, u.cover_key,
              d.object_key AS document_key, s.object_key AS selfie_key
       FROM creator_requests r JOIN users u ON u.id = r.user_id
       LEFT JOIN media d ON d.id = r.document_media_id LEFT JOIN media s ON s.id = r.selfie_media_id
       WHERE r.status = 'pending' ORDER BY r.id LIMIT 100`,
    )
    .all<{
      id: number;
      created_at: string;
      user_id: number;
      username: string;
      name: string;
      email: string;
      date_of_birth: string;
      avatar_key: string | null;
      cover_key: string | null;
      document_key: string | null;
      selfie_key: string | null;
    }>();
  return results.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    user: {
      id: row.user_id,
      username: row.username,
      name: row.name,
      email: row.email,
      dateOfBirth: row.date_of_birth,
      avatarUrl: publicMediaUrl(row.avatar_key),
      coverUrl: publicMediaUrl(row.cover_key),
    },
    documentUrl: privateMediaUrl(row.document_key),
    selfieUrl: privateMediaUrl(row.selfie_key),
  }));
}
