import { lockOf, VIEWER_FACTS_SQL, viewerFactsOf, type Audience, type ViewerFactsRow } from "../posts/access";
import { isoNow } from "../shared/time";
import { visiblePostSql } from "./posts";
import { storyVisibleSql } from "./stories";
import type { Viewer } from "./policy";

/**
 * The media policies: one per kind of /media key, told apart by the key's shape alone (the upload commands make
 * every key, worker/domain/media/uploads.ts), each with its rule and its caching. A key of no known shape, or one
 * a policy refuses, does not exist: /media answers 404 either way.
 */
export type MediaKeyType =
  | "profile-image"
  | "post-media"
  | "poster"
  | "preview"
  | "w640"
  | "w1280"
  | "marked"
  | "rendition"
  | "stream"
  | "story-media"
  | "story-poster"
  | "story-rendition"
  | "story-stream"
  | "id-document";

/** One kind of key: who may read it, for a whole page of keys at once, and how its answer is cached. */
interface MediaKeyPolicy {
  /** The subset of `keys` that `viewer` (null: a visitor) may read; one statement for the whole set. */
  readable(db: D1Database, viewer: Viewer | null, keys: readonly string[]): Promise<Set<string>>;
  /** Cache-Control of an answer this policy allowed. */
  cacheControl: string;
}

/** The variants of a content file, each in its own column of `media` (all UNIQUE, so each key is one probe). */
const VARIANT_COLUMN = {
  original: "object_key",
  poster: "poster_key",
  preview: "preview_key",
  w640: "w640_key",
  w1280: "w1280_key",
  marked: "marked_key",
} as const;
/**
 * A variant, a rendition of a video (a row of its own, found by its UNIQUE key), or a video kept by Cloudflare
 * Stream (its key is `stream/{uid}`, found by the UNIQUE stream_uid).
 */
type ContentVariant = keyof typeof VARIANT_COLUMN | "rendition" | "stream";

/**
 * How a key leads to its medium `m` (as k.value), and whether the file is ready: a rendition is found through
 * media_renditions `r`, and is ready once the medium and itself are.
 */
function mediumOfKey(variant: ContentVariant) {
  if (variant === "stream")
    return {
      join: "JOIN media m ON m.stream_uid = substr(k.value, instr(k.value, 'stream/') + 7) AND m.purpose = 'post'",
      ready: "m.status = 'ready'",
    };
  if (variant === "rendition")
    return {
      join: "JOIN media_renditions r ON r.object_key = k.value JOIN media m ON m.id = r.media_id AND m.purpose = 'post'",
      ready: "m.status = 'ready' AND r.status = 'ready'",
    };
  return {
    join: `JOIN media m ON m.${VARIANT_COLUMN[variant]} = k.value AND m.purpose = 'post'`,
    ready: "m.status = 'ready'",
  };
}

/** One key and one post using its file (the post's columns are null when no post does): a key has a row per post. */
interface ContentMediaRow extends ViewerFactsRow {
  key: string;
  uploader_id: number;
  /** 1 when the file is ready (a rendition: it and its medium). */
  ready: number;
  /** 1 when the medium is a marked photo: its original is the uploader's alone, others get its marked copies. */
  marked: number;
  /** 1 when this row's post exists for the viewer (visiblePostSql). */
  visible: number | null;
  user_id: number | null;
  audience: Audience | null;
  price_cents: number | null;
  /** 1 when a message with the file is in a conversation of the viewer. */
  msg_preview: number;
  /** 1 when one of those messages is also open to the viewer: free, sent by them, or bought by them. */
  msg_open: number;
  /** 1 when a story with the file is one the viewer may see (storyVisibleSql; members only). */
  story_visible: number;
}

/**
 * The one rule of content media (docs/decisions/vault.md), whatever the key's prefix: a file is stored once and
 * used by any number of posts, messages and a story, and each use it has may open it. The uploader always may (the
 * vault and the composer show a file before any use). Anyone else needs a ready file, never gets the original of a
 * marked photo, only its marked copies (docs/decisions/watermarks.md), and needs one use open to them:
 * - a post that exists for them: the file, poster, copies and renditions need it open too (lockOf), the blurred
 *   preview does not;
 * - a message in their conversation: the same need it free, sent by them or bought, the preview does not;
 * - a story they may see (every variant).
 */
function mayReadContentMedia(variant: ContentVariant, row: ContentMediaRow, viewerId: number | null): boolean {
  if (viewerId !== null && row.uploader_id === viewerId) return true;
  if (row.ready !== 1) return false;
  if (variant === "original" && row.marked === 1) return false;
  if (row.story_visible === 1) return true;
  if (variant === "preview" ? row.msg_preview === 1 : row.msg_open === 1) return true;
  if (row.visible !== 1 || row.user_id === null || row.audience === null || row.price_cents === null) return false;
  const lock = lockOf(
    { authorId: row.user_id, audience: row.audience, priceCents: row.price_cents },
    viewerFactsOf(viewerId, row),
  );
  if (lock === "hidden") return false;
  return variant === "preview" || lock === null;
}

function contentMediaPolicy(variant: ContentVariant): MediaKeyPolicy {
  const medium = mediumOfKey(variant);
  return {
    // Per viewer: the browser's cache only, never a shared one.
    cacheControl: "private, max-age=3600",
    async readable(db, viewer, keys) {
      const viewerId = viewer?.id ?? null;
      const { results } = await db
        .prepare(
          `SELECT k.value AS key, m.user_id AS uploader_id, (${medium.ready}) AS ready, m.watermark IS NOT NULL AS marked, p.user_id, p.audience, p.price_cents,
                  (SELECT 1 FROM users u WHERE u.id = p.user_id AND ${visiblePostSql()}) AS visible, ${VIEWER_FACTS_SQL},
                  EXISTS (SELECT 1 FROM message_media mm JOIN messages msg ON msg.id = mm.message_id
                          JOIN conversation_members cm ON cm.conversation_id = msg.conversation_id AND cm.user_id = ?1
                          WHERE mm.media_id = m.id) AS msg_preview,
                  EXISTS (SELECT 1 FROM message_media mm JOIN messages msg ON msg.id = mm.message_id
                          JOIN conversation_members cm ON cm.conversation_id = msg.conversation_id AND cm.user_id = ?1
                          WHERE mm.media_id = m.id AND (msg.price_cents = 0 OR msg.sender_id = ?1
                            OR EXISTS (SELECT 1 FROM message_purchases mp WHERE mp.message_id = msg.id AND mp.user_id = ?1))) AS msg_open,
                  (?1 IS NOT NULL AND EXISTS (SELECT 1 FROM stories st JOIN users o ON o.id = st.creator_id
                                              WHERE st.media_id = m.id AND ${storyVisibleSql()})) AS story_visible
           FROM json_each(?3) k ${medium.join}
           LEFT JOIN post_media pm ON pm.media_id = m.id LEFT JOIN posts p ON p.id = pm.post_id`,
        )
        .bind(viewerId, isoNow(), JSON.stringify(keys))
        .all<ContentMediaRow>();
      return new Set(results.filter((row) => mayReadContentMedia(variant, row, viewerId)).map((row) => row.key));
    },
  };
}

interface IdDocumentRow {
  key: string;
  user_id: number;
  /** The status of the creator request holding the file; null before the request is submitted. */
  request_status: "pending" | "approved" | "rejected" | null;
}

/**
 * The pure rule of ID documents and selfies: admins, while the request holding them waits for a decision; the
 * uploader until they submit it (the form shows what was picked), never afterwards, so a stolen session cannot
 * read the documents back.
 */
function mayReadIdDocument(row: IdDocumentRow, viewer: Viewer | null): boolean {
  if (!viewer) return false;
  if (viewer.role === "admin") return row.request_status === "pending";
  return row.user_id === viewer.id && row.request_status === null;
}

const idDocumentPolicy: MediaKeyPolicy = {
  cacheControl: "private, no-store",
  async readable(db, viewer, keys) {
    if (!viewer) return new Set();
    const { results } = await db
      .prepare(
        `SELECT k.value AS key, m.user_id,
                (SELECT r.status FROM creator_requests r WHERE r.document_media_id = m.id OR r.selfie_media_id = m.id) AS request_status
         FROM json_each(?1) k JOIN media m ON m.object_key = k.value AND m.purpose IN ('id_document', 'id_selfie')`,
      )
      .bind(JSON.stringify(keys))
      .all<IdDocumentRow>();
    return new Set(results.filter((row) => mayReadIdDocument(row, viewer)).map((row) => row.key));
  },
};

/** Avatars and covers: public images (they share the public/ prefix); whether one exists is R2's answer. */
const profileImagePolicy: MediaKeyPolicy = {
  cacheControl: "public, max-age=86400",
  readable: async (_db, _viewer, keys) => new Set(keys),
};

/** Every kind of key by its shape: the upload commands make keys of exactly these shapes (uploads.ts). */
const KEY_SHAPES: [MediaKeyType, RegExp][] = [
  ["profile-image", /^public\/[a-z0-9/_-]+\.(png|jpe?g|webp|gif)$/i],
  ["post-media", /^posts\/[a-f0-9]{32}\.(png|jpe?g|webp|gif|mp4|webm|mov)$/i],
  ["poster", /^posters\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["preview", /^previews\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["w640", /^scaled\/640\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["w1280", /^scaled\/1280\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["marked", /^marked\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["rendition", /^renditions\/[a-f0-9]{32}\.(mp4|webm)$/i],
  ["story-media", /^stories\/[a-f0-9]{32}\.(png|jpe?g|webp|gif|mp4|webm|mov)$/i],
  ["story-poster", /^stories\/posters\/[a-f0-9]{32}\.(jpe?g|webp|png|gif)$/i],
  ["story-rendition", /^stories\/renditions\/[a-f0-9]{32}\.(mp4|webm)$/i],
  // Not R2 objects: a video kept by Cloudflare Stream, whose answer is a redirect to its signed manifest.
  ["stream", /^stream\/[a-f0-9]{32}$/],
  ["story-stream", /^stories\/stream\/[a-f0-9]{32}$/],
  ["id-document", /^private\/[a-f0-9]{32}\.(png|jpe?g|webp|gif)$/],
];

/** A story's keys (stories/...) and the others name the same kind of file under the same rule: only the prefix differs. */
const POLICY_OF: Record<MediaKeyType, MediaKeyPolicy> = {
  "profile-image": profileImagePolicy,
  "post-media": contentMediaPolicy("original"),
  poster: contentMediaPolicy("poster"),
  preview: contentMediaPolicy("preview"),
  w640: contentMediaPolicy("w640"),
  w1280: contentMediaPolicy("w1280"),
  marked: contentMediaPolicy("marked"),
  rendition: contentMediaPolicy("rendition"),
  stream: contentMediaPolicy("stream"),
  "story-media": contentMediaPolicy("original"),
  "story-poster": contentMediaPolicy("poster"),
  "story-rendition": contentMediaPolicy("rendition"),
  "story-stream": contentMediaPolicy("stream"),
  "id-document": idDocumentPolicy,
};

/** Which kind of key this is, by its shape; null: no key the app makes looks like this. */
export const mediaKeyTypeOf = (key: string): MediaKeyType | null =>
  KEY_SHAPES.find(([, shape]) => shape.test(key))?.[0] ?? null;

/** The keys among `keys` the viewer may read, whatever their kinds: one statement per kind present, for a whole page. */
export async function readableMediaKeys(
  db: D1Database,
  viewer: Viewer | null,
  keys: readonly string[],
): Promise<Set<string>> {
  const byType = new Map<MediaKeyType, string[]>();
  for (const key of keys) {
    const type = mediaKeyTypeOf(key);
    if (type) byType.set(type, [...(byType.get(type) ?? []), key]);
  }
  const allowed = await Promise.all([...byType].map(([type, ofType]) => POLICY_OF[type].readable(db, viewer, ofType)));
  return new Set(allowed.flatMap((set) => [...set]));
}

/** For /media/{key}: the Cache-Control to answer with when the viewer may read it, else null (a 404). */
export async function mediaAccessOf(db: D1Database, viewer: Viewer | null, key: string): Promise<string | null> {
  const type = mediaKeyTypeOf(key);
  if (!type) return null;
  const policy = POLICY_OF[type];
  return (await policy.readable(db, viewer, [key])).has(key) ? policy.cacheControl : null;
}
