import type { ChatMediaItem, MessagePage } from "@shared/contracts/messages";
import { onceAllowed } from "../../db/request-database";
import type { DomainContext } from "../context";
import { requireConversationAccess } from "../policies/conversations";
import type { Viewer } from "../policies/policy";
import { MESSAGE_COLUMNS, messageMediaSql, presentMessagesWith, type ChatMediaRow, type MessageRow } from "./present-messages";

export const MESSAGES_PAGE_SIZE = 30;
/** At most this many newer messages in one answer (a socket that reconnects catches up with `after`). */
export const MESSAGES_AFTER_LIMIT = 100;

/**
 * Rows of `sql` (messages m with MESSAGE_COLUMNS, parameters `values`) and their media, read in the same round trip
 * as the viewer's access to the conversation (the request database sends the reads of one turn as one batch), and
 * handed over only once the access is granted: a refused viewer gets the policy's error, and the rows read with it
 * are dropped unseen.
 */
async function readWithAccess(ctx: Pick<DomainContext, "db">, viewer: Viewer, conversationId: number, sql: string, values: unknown[]) {
  const [{ results }, { results: mediaRows }] = await onceAllowed(
    requireConversationAccess(ctx.db, viewer, conversationId, "read"),
    Promise.all([
      ctx.db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m ${sql}`).bind(...values).all<MessageRow>(),
      ctx.db.prepare(messageMediaSql(`SELECT m.id FROM messages m ${sql}`)).bind(...values).all<ChatMediaRow>(),
    ]),
  );
  return { results, mediaRows };
}

/**
 * A page of a conversation, oldest first. Without a position: the newest page. `before`: the page older than
 * that seq (scrolling up). `after`: what came after that seq (a reconnecting socket catching up). One round trip:
 * the access, one indexed statement on (conversation_id, seq) and one for the page's media (readWithAccess).
 */
export async function listMessages(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  position: { before?: number; after?: number },
): Promise<MessagePage> {
  if (position.after !== undefined) {
    const { results, mediaRows } = await readWithAccess(ctx, viewer, conversationId, "WHERE m.conversation_id = ?1 AND m.seq > ?2 ORDER BY m.seq LIMIT ?3", [
      conversationId,
      position.after,
      MESSAGES_AFTER_LIMIT,
    ]);
    return { messages: presentMessagesWith(results, mediaRows, viewer.id), nextBefore: null };
  }
  const { results, mediaRows } = await readWithAccess(ctx, viewer, conversationId, "WHERE m.conversation_id = ?1 AND m.seq < ?2 ORDER BY m.seq DESC LIMIT ?3", [
    conversationId,
    position.before ?? Number.MAX_SAFE_INTEGER,
    MESSAGES_PAGE_SIZE + 1,
  ]);
  const page = results.slice(0, MESSAGES_PAGE_SIZE).reverse();
  return {
    messages: presentMessagesWith(page, mediaRows, viewer.id),
    nextBefore: results.length > MESSAGES_PAGE_SIZE ? page[0]!.seq : null,
  };
}

export const CHAT_MEDIA_PAGE_SIZE = 60;

/**
 * "Chat media" (spec §2): the photos and videos exchanged in a conversation, newest first, as the viewer sees them
 * (a locked pay-per-view file is its preview only). Keyset by message seq; one round trip (readWithAccess).
 */
export async function listChatMedia(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  before: number | undefined,
): Promise<{ items: ChatMediaItem[]; nextBefore: number | null }> {
  const { results, mediaRows } = await readWithAccess(ctx, viewer, conversationId, "WHERE m.conversation_id = ?1 AND m.media_count > 0 AND m.seq < ?2 ORDER BY m.seq DESC LIMIT ?3", [
    conversationId,
    before ?? Number.MAX_SAFE_INTEGER,
    CHAT_MEDIA_PAGE_SIZE + 1,
  ]);
  const page = results.slice(0, CHAT_MEDIA_PAGE_SIZE);
  const messages = presentMessagesWith(page, mediaRows, viewer.id);
  return {
    items: messages.flatMap((message) => message.media.map((media) => ({ messageId: message.id, seq: message.seq, media, locked: message.locked, priceCents: message.priceCents }))),
    nextBefore: results.length > CHAT_MEDIA_PAGE_SIZE ? page.at(-1)!.seq : null,
  };
}
