import type { RenditionView } from "@shared/contracts/renditions";
import { renditionView, type RenditionRow } from "./renditions/renditions";
import { isStoryObject } from "./uploads";

/**
 * SQL: the ready renditions of the medium whose id is `mediaIdSql`, lowest first, as one JSON array of
 * [name, object_key, content_type, codecs, width, height, size_bytes, duration_ms]. A column of the statement that
 * reads a page's media (posts, messages, stories), so a page's renditions cost no round trip of their own. The names
 * sort lowest first ("360p", "720p"), as the primary key already orders them: no sort.
 */
export const readyRenditionsJsonSql = (mediaIdSql: string) =>
  `json(COALESCE((SELECT json_group_array(json_array(r.name, r.object_key, r.content_type, r.codecs, r.width, r.height, r.size_bytes, r.duration_ms))
   FROM (SELECT * FROM media_renditions r WHERE r.media_id = ${mediaIdSql} AND r.status = 'ready' ORDER BY r.name) r), '[]'))`;

type RenditionTuple = [
  RenditionRow["name"],
  string,
  RenditionRow["content_type"],
  string | null,
  number | null,
  number | null,
  number,
  number | null,
];

/** readyRenditionsJsonSql's array (as text, or already parsed inside a larger JSON value) as the player sees it. */
export function renditionViewsOf(json: string | RenditionTuple[] | null | undefined): RenditionView[] {
  const tuples = typeof json === "string" ? (JSON.parse(json) as RenditionTuple[]) : (json ?? []);
  return tuples.map(([name, object_key, content_type, codecs, width, height, size_bytes, duration_ms]) =>
    renditionView({ name, object_key, content_type, codecs, width, height, size_bytes, duration_ms }),
  );
}

/**
 * Where a video kept by Cloudflare Stream plays: a /media key checked by the medium's own rule like its other files
 * (policies/media.ts), which answers with a redirect to the manifest signed for a few hours (worker/http/media.ts).
 * The page and its offline copies hold this stable address, never a token. Null for a video not in Stream.
 */
export const hlsUrlOf = (objectKey: string, streamUid: string | null) =>
  streamUid === null ? null : `/media/${isStoryObject(objectKey) ? "stories/" : ""}stream/${streamUid}`;
