import type { Role } from "../accounts/users";

/**
 * For /media/private/{key} (ID documents and selfies of creator requests): admins, who review them; and the
 * uploader until the request is submitted (the form shows what was picked). Not even the uploader afterwards,
 * so a stolen session cannot read the documents back.
 */
export async function canFetchPrivateMedia(db: D1Database, objectKey: string, viewer: { id: number; role: Role } | null): Promise<boolean> {
  if (!viewer) return false;
  const row = await db
    .prepare(
      `SELECT m.user_id,
              EXISTS (SELECT 1 FROM creator_requests r WHERE r.document_media_id = m.id OR r.selfie_media_id = m.id) AS submitted
       FROM media m WHERE m.object_key = ? AND m.purpose IN ('id_document', 'id_selfie')`,
    )
    .bind(objectKey)
    .first<{ user_id: number; submitted: number }>();
  if (!row) return false;
  return viewer.role === "admin" || (row.user_id === viewer.id && row.submitted === 0);
}
