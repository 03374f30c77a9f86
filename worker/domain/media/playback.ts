import type { RenditionView } from "@shared/contracts/renditions";
import type { Config } from "../../env";
import { renditionView, type RenditionRow } from "./renditions/renditions";
import { streamHlsUrl } from "./stream/playback";

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
 * The signed HLS manifests of the videos kept by Cloudflare Stream among `streamUids`, by uid: made before a page is
 * presented (signing is asynchronous; presenting is not), one call per video in Stream, none otherwise.
 */
export async function hlsUrlsOf(
  settings: Config,
  streamUids: readonly (string | null)[],
): Promise<ReadonlyMap<string, string>> {
  const uids = [...new Set(streamUids.filter((uid): uid is string => uid !== null))];
  const urls = await Promise.all(uids.map(async (uid) => [uid, await streamHlsUrl(settings, uid)] as const));
  return new Map(urls.filter((entry): entry is readonly [string, string] => entry[1] !== null));
}

/** A medium's HLS manifest from hlsUrlsOf's answer. */
export const hlsUrlOf = (hlsUrls: ReadonlyMap<string, string>, streamUid: string | null) =>
  streamUid === null ? null : (hlsUrls.get(streamUid) ?? null);

/** No video in Stream: what presenting without hlsUrlsOf's answer uses. */
export const NO_HLS_URLS: ReadonlyMap<string, string> = new Map();
