import type { UploadStatus } from "@shared/contracts/uploads";
import { partCountOf, PART_SIZE } from "./limits";
import { findOwnUpload } from "./uploads";

export async function getUpload(db: D1Database, userId: number, mediaId: number): Promise<UploadStatus> {
  const upload = await findOwnUpload(db, userId, mediaId);
  const { results } = await db
    .prepare("SELECT part_number FROM media_parts WHERE media_id = ? ORDER BY part_number")
    .bind(mediaId)
    .all<{ part_number: number }>();
  return {
    status: upload.status,
    partSize: PART_SIZE,
    // A video sent to Cloudflare Stream has no parts here: its bytes went to Stream with tus.
    partCount: upload.stream_uid ? 0 : partCountOf(upload.size_bytes),
    receivedParts: results.map((row) => row.part_number),
    postId: upload.post_id,
    renditions: [],
  };
}
