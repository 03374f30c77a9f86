import type { RenditionName } from "@shared/contracts/rendition-specs";
import type { RenditionUpload } from "@shared/contracts/renditions";
import type { UploadStatus } from "@shared/contracts/uploads";
import { partCountOf, PART_SIZE } from "./limits";
import { findOwnUpload } from "./uploads";

interface RenditionPartRow {
  name: RenditionName;
  status: RenditionUpload["status"];
  size_bytes: number;
  part_number: number | null;
}

/** Where the uploader's upload stands, its renditions' included: what a resumed upload still has to send. */
export async function getUpload(db: D1Database, userId: number, mediaId: number): Promise<UploadStatus> {
  const upload = await findOwnUpload(db, userId, mediaId);
  const [parts, renditionParts, posts] = await db.batch([
    db.prepare("SELECT part_number FROM media_parts WHERE media_id = ? ORDER BY part_number").bind(mediaId),
    db
      .prepare(
        `SELECT r.name, r.status, r.size_bytes, p.part_number FROM media_renditions r
         LEFT JOIN media_rendition_parts p ON p.media_id = r.media_id AND p.name = r.name
         WHERE r.media_id = ? ORDER BY r.name, p.part_number`,
      )
      .bind(mediaId),
    // The first post using the file: a composer resumes only files no post has taken yet.
    db.prepare("SELECT post_id FROM post_media WHERE media_id = ? ORDER BY post_id LIMIT 1").bind(mediaId),
  ]);
  const renditions = new Map<RenditionName, RenditionUpload>();
  for (const row of renditionParts!.results as RenditionPartRow[]) {
    const rendition = renditions.get(row.name) ?? {
      name: row.name,
      status: row.status,
      size: row.size_bytes,
      partCount: partCountOf(row.size_bytes),
      receivedParts: [],
    };
    if (row.part_number !== null) rendition.receivedParts.push(row.part_number);
    renditions.set(row.name, rendition);
  }
  return {
    status: upload.status,
    partSize: PART_SIZE,
    // A video sent to Cloudflare Stream has no parts here: its bytes went to Stream with tus.
    partCount: upload.stream_uid ? 0 : partCountOf(upload.size_bytes),
    receivedParts: (parts!.results as { part_number: number }[]).map((row) => row.part_number),
    postId: (posts!.results[0] as { post_id: number } | undefined)?.post_id ?? null,
    renditions: [...renditions.values()],
    watermark: upload.watermark,
  };
}
