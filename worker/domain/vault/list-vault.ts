import type { VaultItem, VaultPage } from "@shared/contracts/vault";
import { mediaUrl } from "../media/uploads";
import type { Viewer } from "../policies/policy";
import { encodeCursor, type Cursor } from "../shared/cursor";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { ALBUM_NOT_FOUND, IN_VAULT_OF_CREATOR_SQL, requireVaultOwner } from "./creators-only";

const VAULT_PAGE_SIZE = 30;

const CONVERSATION_NOT_FOUND = message("This conversation does not exist.");

export interface VaultFilter {
  kind: VaultItem["kind"] | null;
  albumId: number | null;
  /** One of the creator's conversations: each item then says whether its other member was sent it, and bought it. */
  conversationId: number | null;
  cursor: Cursor | null;
}

interface VaultRow {
  id: number;
  kind: VaultItem["kind"];
  object_key: string;
  poster_key: string | null;
  w640_key: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  created_at: string;
  album_ids: string;
  use_count: number;
  sent: number | null;
  bought: number | null;
}

/**
 * Where a file is used, counted once per post, per message sent on its own, per mass message (not per message it
 * delivered), per story and the welcome message: what deleting it would take away.
 */
const USE_COUNT_SQL = `(SELECT COUNT(*) FROM post_media pm WHERE pm.media_id = m.id)
  + (SELECT COUNT(*) FROM message_media mm JOIN messages msg ON msg.id = mm.message_id WHERE mm.media_id = m.id AND msg.mass_message_id IS NULL)
  + (SELECT COUNT(*) FROM mass_messages mass, json_each(mass.media_ids) j WHERE mass.sender_id = m.user_id AND mass.status IN ('scheduled', 'sending', 'sent') AND j.value = m.id)
  + (SELECT COUNT(*) FROM stories st WHERE st.media_id = m.id)
  + (SELECT COUNT(*) FROM welcome_messages w, json_each(w.media_ids) j WHERE w.creator_id = m.user_id AND j.value = m.id)`;

/** A message of the creator ?1 in conversation ?5 carrying the file (any message, a mass message's delivery too). */
const SENT_IN_CONVERSATION_SQL = `SELECT 1 FROM message_media mm JOIN messages msg ON msg.id = mm.message_id
  WHERE mm.media_id = m.id AND msg.conversation_id = ?5 AND msg.sender_id = ?1`;

/**
 * One page of the vault, newest first, keyset on the id (media_user's order). ?1 the creator, ?2 the kind or
 * null, ?3 the album or null, ?4 the cursor's id or null, ?5 the conversation or null, ?6 its other member, ?7
 * the page size plus one.
 */
const VAULT_PAGE_SQL = `SELECT m.id, m.kind, m.object_key, m.poster_key, m.w640_key, m.width, m.height, m.duration_ms, m.created_at,
    (SELECT json_group_array(ai.album_id) FROM vault_album_items ai WHERE ai.media_id = m.id) AS album_ids,
    ${USE_COUNT_SQL} AS use_count,
    CASE WHEN ?5 IS NULL THEN NULL ELSE EXISTS (${SENT_IN_CONVERSATION_SQL}) END AS sent,
    CASE WHEN ?5 IS NULL THEN NULL ELSE EXISTS (${SENT_IN_CONVERSATION_SQL}
      AND EXISTS (SELECT 1 FROM message_purchases mp WHERE mp.message_id = msg.id AND mp.user_id = ?6)) END AS bought
  FROM media m
  WHERE ${IN_VAULT_OF_CREATOR_SQL} AND (?2 IS NULL OR m.kind = ?2) AND (?4 IS NULL OR m.id < ?4)
    AND (?3 IS NULL OR EXISTS (SELECT 1 FROM vault_album_items f WHERE f.album_id = ?3 AND f.media_id = m.id))
  ORDER BY m.id DESC LIMIT ?7`;

/**
 * GET /api/vault: the creator's finished content files (for posts, messages, stories, mass messages, or uploaded
 * straight into the vault), filtered by kind and album. An album or conversation that is not the creator's is
 * not found; the checks ride in the page's batch.
 */
export async function listVault(db: D1Database, viewer: Viewer, filter: VaultFilter): Promise<VaultPage> {
  requireVaultOwner(viewer);
  const [album, conversation] = await db.batch<{ other_id: number }>([
    db
      .prepare("SELECT 0 AS other_id FROM vault_albums WHERE id = ?2 AND creator_id = ?1")
      .bind(viewer.id, filter.albumId),
    db
      .prepare(
        `SELECT CASE WHEN user_low = ?1 THEN user_high ELSE user_low END AS other_id FROM conversations
         WHERE id = ?2 AND ?1 IN (user_low, user_high)`,
      )
      .bind(viewer.id, filter.conversationId),
  ]);
  if (filter.albumId !== null && album!.results.length === 0) throw new AppError("not_found", ALBUM_NOT_FOUND);
  const otherId = conversation!.results[0]?.other_id ?? null;
  if (filter.conversationId !== null && otherId === null) throw new AppError("not_found", CONVERSATION_NOT_FOUND);
  const { results } = await db
    .prepare(VAULT_PAGE_SQL)
    .bind(
      viewer.id,
      filter.kind,
      filter.albumId,
      filter.cursor?.id ?? null,
      filter.conversationId,
      otherId,
      VAULT_PAGE_SIZE + 1,
    )
    .all<VaultRow>();
  const page = results.slice(0, VAULT_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map(presentVaultItem),
    nextCursor: results.length > VAULT_PAGE_SIZE && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** The owner's view: the original (never a marked copy), a small copy or a video's poster frame to show it by. */
function presentVaultItem(row: VaultRow): VaultItem {
  const url = mediaUrl(row.object_key);
  const small = row.kind === "image" ? row.w640_key : row.poster_key;
  return {
    id: row.id,
    kind: row.kind,
    url,
    thumbnailUrl: small ? mediaUrl(small) : url,
    width: row.width,
    height: row.height,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
    albumIds: (JSON.parse(row.album_ids) as number[]).sort((a, b) => a - b),
    useCount: row.use_count,
    sent: row.sent === null ? null : row.sent === 1,
    bought: row.bought === null ? null : row.bought === 1,
  };
}
