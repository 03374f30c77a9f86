import type { ChatMediaItem, MessagePage } from "@shared/contracts/messages";
import type { DomainContext } from "../context";
import { requireConversationAccess } from "../policies/conversations";
import type { Viewer } from "../policies/policy";
import { MESSAGE_COLUMNS, presentMessages, type MessageRow } from "./present-messages";

export const MESSAGES_PAGE_SIZE = 30;
/** At most this many newer messages in one answer (a socket that reconnects catches up with `after`). */
export const MESSAGES_AFTER_LIMIT = 100;

/**
 * A page of a conversation, oldest first. Without a position: the newest page. `before`: the page older than
 * that seq (scrolling up). `after`: what came after that seq (a reconnecting socket catching up). One indexed
 * statement on (conversation_id, seq), and one for the page's media.
 */
export async function listMessages(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  position: { before?: number; after?: number },
): Promise<MessagePage> {
  await requireConversationAccess(ctx.db, viewer, conversationId, "read");
  if (position.after !== undefined) {
    const { results } = await ctx.db
      .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?`)
      .bind(conversationId, position.after, MESSAGES_AFTER_LIMIT)
      .all<MessageRow>();
    return { messages: await presentMessages(ctx.db, viewer.id, results), nextBefore: null };
  }
  const { results } = await ctx.db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ? AND m.seq < ? ORDER BY m.seq DESC LIMIT ?`)
    .bind(conversationId, position.before ?? Number.MAX_SAFE_INTEGER, MESSAGES_PAGE_SIZE + 1)
    .all<MessageRow>();
  const page = results.slice(0, MESSAGES_PAGE_SIZE).reverse();
  return {
    messages: await presentMessages(ctx.db, viewer.id, page),
    nextBefore: results.length > MESSAGES_PAGE_SIZE ? page[0]!.seq : null,
  };
}

export const CHAT_MEDIA_PAGE_SIZE = 60;

/**
 * "Chat media" (spec §2): the photos and videos exchanged in a conversation, newest first, as the viewer sees them
 * (a locked pay-per-view file is its preview only). Keyset by message seq, one statement for the page.
 */
export async function listChatMedia(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  before: number | undefined,
): Promise<{ items: ChatMediaItem[]; nextBefore: number | null }> {
  await requireConversationAccess(ctx.db, viewer, conversationId, "read");
  const { results } = await ctx.db
    .prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m
       WHERE m.conversation_id = ? AND m.media_count > 0 AND m.seq < ? ORDER BY m.seq DESC LIMIT ?`,
    )
    .bind(conversationId, before ?? Number.MAX_SAFE_INTEGER, CHAT_MEDIA_PAGE_SIZE + 1)
    .all<MessageRow>();
  const page = results.slice(0, CHAT_MEDIA_PAGE_SIZE);
  const messages = await presentMessages(ctx.db, viewer.id, page);
  return {
    items: messages.flatMap((message) => message.media.map((media) => ({ messageId: message.id, seq: message.seq, media, locked: message.locked, priceCents: message.priceCents }))),
    nextBefore: results.length > CHAT_MEDIA_PAGE_SIZE ? page.at(-1)!.seq : null,
  };
}
