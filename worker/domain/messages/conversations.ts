import type { ConversationPage, ConversationView } from "@shared/contracts/messages";
import { decodeCursor, encodeCursor } from "@shared/cursor";
import type { UserRow } from "../accounts/users";
import { publicMediaUrl } from "../accounts/users";
import type { DomainContext } from "../context";
import { PROFILE_NOT_FOUND } from "../profiles/find-member";
import {
  conversationPermissionsOf,
  PAIR_FACTS_SQL,
  pairFactsOf,
  conversationAccessCheck,
  requireConversationAccess,
  writeRefusalOf,
  type PairFactsRow,
} from "../policies/conversations";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { readTogether, type Read } from "../shared/reads";

export type { ConversationView };

const CANNOT_MESSAGE_YOURSELF = message("You cannot send a message to yourself.");
const CONVERSATIONS_PAGE_SIZE = 20;

/** What a fan pays per message they send to this member: a creator's per-message price; creators write for free. */
export const messagePriceFor = (viewerRole: string, other: { role: string; message_price_cents: number }) =>
  viewerRole !== "creator" && other.role === "creator" ? other.message_price_cents : 0;

interface ConversationRow extends PairFactsRow {
  id: number;
  unread_count: number;
  activity_at: string | null;
  other_last_read_seq: number;
  o_id: number;
  o_username: string;
  o_name: string;
  o_avatar_key: string | null;
  o_message_price_cents: number;
  m_sender_id: number | null;
  m_text: string | null;
  m_created_at: string | null;
  m_price_cents: number | null;
  m_tip_cents: number | null;
  m_media_kind: "image" | "video" | null;
  m_bought: number | null;
}

/**
 * The viewer's conversations (?1; ?2 is now), the other member joined as `o`. WHERE and ORDER are the caller's;
 * `cm` is the viewer's membership row.
 */
const CONVERSATION_SELECT = `
  SELECT c.id, cm.unread_count, cm.activity_at, other.last_read_seq AS other_last_read_seq,
         o.id AS o_id, o.username AS o_username, o.name AS o_name, o.avatar_key AS o_avatar_key, o.message_price_cents AS o_message_price_cents,
         m.sender_id AS m_sender_id, m.text AS m_text, m.created_at AS m_created_at, m.price_cents AS m_price_cents, m.tip_cents AS m_tip_cents,
         (SELECT md.kind FROM message_media mm JOIN media md ON md.id = mm.media_id WHERE mm.message_id = m.id ORDER BY mm.position LIMIT 1) AS m_media_kind,
         EXISTS (SELECT 1 FROM message_purchases mp WHERE mp.message_id = m.id AND mp.user_id = ?1) AS m_bought,
         ${PAIR_FACTS_SQL}
  FROM conversation_members cm
  JOIN conversations c ON c.id = cm.conversation_id
  JOIN conversation_members other ON other.conversation_id = c.id AND other.user_id <> ?1
  JOIN users o ON o.id = other.user_id
  LEFT JOIN messages m ON m.id = c.last_message_id`;

function presentConversation(ctx: Pick<DomainContext, "t">, viewer: Viewer, row: ConversationRow): ConversationView {
  const facts = pairFactsOf(viewer.role, row);
  const refusal = writeRefusalOf(facts);
  return {
    id: row.id,
    other: {
      userId: row.o_id,
      username: row.o_username,
      name: row.o_name,
      avatarUrl: publicMediaUrl(row.o_avatar_key),
      isCreator: row.p_other_role === "creator",
    },
    unreadCount: row.unread_count,
    activityAt: row.activity_at,
    lastMessage:
      row.m_sender_id === null
        ? null
        : {
            fromMe: row.m_sender_id === viewer.id,
            text: row.m_text ?? "",
            mediaKind: row.m_media_kind,
            locked: (row.m_price_cents ?? 0) > 0 && row.m_sender_id !== viewer.id && row.m_bought !== 1,
            tipCents: row.m_tip_cents ?? 0,
            createdAt: row.m_created_at!,
          },
    otherLastReadSeq: row.other_last_read_seq,
    messagePriceCents: messagePriceFor(viewer.role, {
      role: row.p_other_role,
      message_price_cents: row.o_message_price_cents,
    }),
    writeRefusal: refusal === null ? null : ctx.t(refusal),
    viewer: conversationPermissionsOf(facts),
  };
}

/** One conversation as its member sees it, read without an access check: send it after conversationAccessCheck. */
export function conversationRead(
  ctx: Pick<DomainContext, "db" | "t">,
  viewer: Viewer,
  conversationId: number,
): Read<ConversationView> {
  return {
    statement: ctx.db
      .prepare(`${CONVERSATION_SELECT} WHERE cm.user_id = ?1 AND c.id = ?3`)
      .bind(viewer.id, isoNow(), conversationId),
    answer: (result) => presentConversation(ctx, viewer, result.results[0] as ConversationRow),
  };
}

/** One conversation as its member sees it; not a member: "not found". One batch: the access, then the row. */
export async function getConversation(
  ctx: Pick<DomainContext, "db" | "t">,
  viewer: Viewer,
  conversationId: number,
): Promise<ConversationView> {
  const [, conversation] = await readTogether(ctx.db, [
    conversationAccessCheck(ctx.db, viewer, conversationId, "read"),
    conversationRead(ctx, viewer, conversationId),
  ]);
  return conversation;
}

/**
 * /messages: newest activity first, conversations with at least one message that the viewer has not removed,
 * with suspended members left out. One indexed statement (conversation_members_list); keyset cursor.
 */
export async function listConversations(
  ctx: Pick<DomainContext, "db" | "t">,
  viewer: Viewer,
  cursorText: string | undefined,
): Promise<ConversationPage> {
  const cursor = cursorText === undefined ? null : decodeCursor(cursorText);
  if (cursorText !== undefined && cursor === null)
    throw new AppError("validation", INVALID_VALUE, { cursor: [INVALID_VALUE] });
  const { results } = await ctx.db
    .prepare(
      `${CONVERSATION_SELECT}
       WHERE cm.user_id = ?1 AND cm.hidden_at IS NULL AND cm.activity_at IS NOT NULL AND o.suspended_at IS NULL
         AND (?3 IS NULL OR cm.activity_at < ?3 OR (cm.activity_at = ?3 AND cm.conversation_id < ?4))
       ORDER BY cm.activity_at DESC, cm.conversation_id DESC LIMIT ?5`,
    )
    .bind(viewer.id, isoNow(), cursor?.at ?? null, cursor?.id ?? 0, CONVERSATIONS_PAGE_SIZE + 1)
    .all<ConversationRow>();
  const page = results.slice(0, CONVERSATIONS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    conversations: page.map((row) => presentConversation(ctx, viewer, row)),
    nextCursor: results.length > CONVERSATIONS_PAGE_SIZE && last ? encodeCursor(last.activity_at!, last.id) : null,
  };
}

/**
 * "Message" on a profile or a subscriber list: the conversation with that member, made if it does not exist
 * yet (only when the viewer may write to them). Opening an existing one needs no permission beyond a block.
 */
export async function startConversation(
  ctx: Pick<DomainContext, "db" | "t">,
  viewer: UserRow,
  username: string,
): Promise<ConversationView> {
  const { db } = ctx;
  const other = await db
    .prepare(`SELECT o.id, ${PAIR_FACTS_SQL} FROM users o WHERE o.username = ?3`)
    .bind(viewer.id, isoNow(), username)
    .first<PairFactsRow & { id: number }>();
  if (!other || other.p_other_suspended_at !== null) throw new AppError("not_found", PROFILE_NOT_FOUND);
  if (other.id === viewer.id) throw new AppError("forbidden", CANNOT_MESSAGE_YOURSELF);
  const [low, high] = viewer.id < other.id ? [viewer.id, other.id] : [other.id, viewer.id];
  const existing = await db
    .prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?")
    .bind(low, high)
    .first<{ id: number }>();
  const facts = pairFactsOf(viewer.role, other);
  const refusal = writeRefusalOf(facts);
  if (refusal !== null && (existing === null || facts.blocked)) throw new AppError("forbidden", refusal);
  let id = existing?.id;
  if (id === undefined) {
    const now = isoNow();
    // Two first messages racing: the pair's unique index keeps one conversation, both get its id.
    const [, , , found] = await db.batch<{ id: number }>([
      db
        .prepare(
          "INSERT INTO conversations (user_low, user_high, created_at) VALUES (?, ?, ?) ON CONFLICT (user_low, user_high) DO NOTHING",
        )
        .bind(low, high, now),
      db
        .prepare(
          "INSERT INTO conversation_members (conversation_id, user_id) SELECT id, ? FROM conversations WHERE user_low = ? AND user_high = ? ON CONFLICT DO NOTHING",
        )
        .bind(low, low, high),
      db
        .prepare(
          "INSERT INTO conversation_members (conversation_id, user_id) SELECT id, ? FROM conversations WHERE user_low = ? AND user_high = ? ON CONFLICT DO NOTHING",
        )
        .bind(high, low, high),
      db.prepare("SELECT id FROM conversations WHERE user_low = ? AND user_high = ?").bind(low, high),
    ]);
    id = found!.results[0]!.id;
  }
  return getConversation(ctx, viewer, id);
}

/** Removes the conversation from the viewer's list (spec §4 "remove by id"); the next message brings it back. */
export async function hideConversation(
  ctx: Pick<DomainContext, "db" | "publish">,
  viewer: Viewer,
  conversationId: number,
): Promise<void> {
  await requireConversationAccess(ctx.db, viewer, conversationId, "read");
  await ctx.db
    .prepare(
      "UPDATE conversation_members SET hidden_at = ?, unread_count = 0, last_read_seq = COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?2), 0) WHERE conversation_id = ?2 AND user_id = ?3",
    )
    .bind(isoNow(), conversationId, viewer.id)
    .run();
  ctx.publish({ type: "UpdatesChanged", userIds: [viewer.id] });
}

/**
 * The viewer has read the conversation up to its newest message: their unread count clears (the badge) and the
 * other member's screen shows "Seen". Nothing changes, and nothing is announced, when it was read already.
 */
export async function markConversationRead(
  ctx: Pick<DomainContext, "db" | "publish">,
  viewer: Viewer,
  conversationId: number,
): Promise<{ lastReadSeq: number }> {
  const access = await requireConversationAccess(ctx.db, viewer, conversationId, "read");
  const changed = await ctx.db
    .prepare(
      `UPDATE conversation_members SET unread_count = 0, last_read_at = ?1,
              last_read_seq = COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?2), 0)
       WHERE conversation_id = ?2 AND user_id = ?3
         AND (unread_count > 0 OR last_read_seq < COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?2), 0))
       RETURNING last_read_seq`,
    )
    .bind(isoNow(), conversationId, viewer.id)
    .first<{ last_read_seq: number }>();
  if (changed) {
    ctx.publish({
      type: "MessagesRead",
      conversationId,
      userLow: access.userLow,
      userHigh: access.userHigh,
      readerId: viewer.id,
      seq: changed.last_read_seq,
    });
    return { lastReadSeq: changed.last_read_seq };
  }
  const row = await ctx.db
    .prepare("SELECT last_read_seq FROM conversation_members WHERE conversation_id = ? AND user_id = ?")
    .bind(conversationId, viewer.id)
    .first<{ last_read_seq: number }>();
  return { lastReadSeq: row?.last_read_seq ?? 0 };
}
