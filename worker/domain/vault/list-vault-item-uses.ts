import type { VaultUse } from "@shared/contracts/vault";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";

const VAULT_ITEM_NOT_FOUND = message("This file is not in your vault.");

/**
 * SQL: the file `media.id` (a vault file of `media.user_id`) is used: by a post, a message, a story, a mass
 * message naming it (scheduled, sending or sent: it names its files before its messages are written; one cancelled or
 * unsent holds only its copies still in chats), or the
 * welcome message (its settings, or a welcome still to send). Albums are not uses: they only group the vault.
 */
export const VAULT_FILE_USED_SQL = `(EXISTS (SELECT 1 FROM post_media pm WHERE pm.media_id = media.id)
  OR EXISTS (SELECT 1 FROM message_media mm WHERE mm.media_id = media.id)
  OR EXISTS (SELECT 1 FROM stories st WHERE st.media_id = media.id)
  OR EXISTS (SELECT 1 FROM mass_messages mass, json_each(mass.media_ids) j WHERE mass.sender_id = media.user_id AND mass.status IN ('scheduled', 'sending', 'sent') AND j.value = media.id)
  OR EXISTS (SELECT 1 FROM welcome_messages w, json_each(w.media_ids) j WHERE w.creator_id = media.user_id AND j.value = media.id)
  OR EXISTS (SELECT 1 FROM welcome_deliveries d, json_each(d.media_ids) j WHERE d.creator_id = media.user_id AND j.value = media.id))`;

/** The owner's vault file, or "not found" for anyone else's, a profile image or an ID document. */
export async function requireOwnVaultFile(db: D1Database, ownerId: number, mediaId: number): Promise<void> {
  const own = await db
    .prepare("SELECT 1 AS ok FROM media WHERE id = ? AND user_id = ? AND purpose = 'post'")
    .bind(mediaId, ownerId)
    .first();
  if (!own) throw new AppError("not_found", VAULT_ITEM_NOT_FOUND);
}

/**
 * Where the owner's file is used: its posts, its one-to-one messages, its mass messages (once each, however many
 * chats they reached), its story and the welcome message. One statement; the owner only (anyone else: not found).
 */
export async function listVaultItemUses(db: D1Database, ownerId: number, mediaId: number): Promise<VaultUse[]> {
  await requireOwnVaultFile(db, ownerId, mediaId);
  // D1 takes at most five terms in one compound SELECT.
  const { results } = await db
    .prepare(
      `SELECT 'post' AS kind, pm.post_id AS id, NULL AS conversation_id FROM post_media pm WHERE pm.media_id = ?1
       UNION SELECT 'message', msg.id, msg.conversation_id FROM message_media mm JOIN messages msg ON msg.id = mm.message_id
         WHERE mm.media_id = ?1 AND msg.mass_message_id IS NULL
       UNION SELECT 'mass', mass.id, NULL FROM mass_messages mass WHERE mass.sender_id = ?2
         AND (EXISTS (SELECT 1 FROM json_each(mass.media_ids) j WHERE j.value = ?1 AND mass.status IN ('scheduled', 'sending', 'sent'))
           OR EXISTS (SELECT 1 FROM messages msg JOIN message_media mm ON mm.message_id = msg.id
                      WHERE msg.mass_message_id = mass.id AND mm.media_id = ?1))
       UNION SELECT 'story', st.id, NULL FROM stories st WHERE st.media_id = ?1
       UNION SELECT 'welcome', ?2, NULL FROM welcome_messages w, json_each(w.media_ids) j WHERE w.creator_id = ?2 AND j.value = ?1
       ORDER BY 1, 2`,
    )
    .bind(mediaId, ownerId)
    .all<{ kind: VaultUse["kind"]; id: number; conversation_id: number | null }>();
  return results.map((row) => ({ kind: row.kind, id: row.id, conversationId: row.conversation_id }));
}
