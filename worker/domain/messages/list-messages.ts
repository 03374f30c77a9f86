import type { ChatMediaItem, ConversationView, MessagePage } from "@shared/contracts/messages";
import type { DomainContext } from "../context";
import { conversationAccessCheck } from "../policies/conversations";
import type { Viewer } from "../policies/policy";
import { allRows, readTogether, type Read } from "../shared/reads";
import { conversationRead } from "./conversations";
import {
  MESSAGE_COLUMNS,
  messageMediaSql,
  presentMessagesWith,
  type ChatMediaRow,
  type MessageRow,
} from "./present-messages";

const MESSAGES_PAGE_SIZE = 30;
/** At most this many newer messages in one answer (a socket that reconnects catches up with `after`). */
const MESSAGES_AFTER_LIMIT = 100;

/** What a page of a conversation reads: messages m with MESSAGE_COLUMNS (`sql`: WHERE, ORDER and LIMIT), and how it is shown. */
interface PageQuery<T> {
  sql: string;
  values: unknown[];
  present(rows: MessageRow[], media: ChatMediaRow[], viewerId: number): T;
}

/**
 * The reads of `query`: the viewer's access to the conversation first, then the rows and their media, in one batch.
 * A refused viewer gets the policy's error, and the rows read with it are dropped unseen. `alongside` are read in
 * the same batch, after the access.
 */
async function readWithAccess<T, A extends readonly Read<unknown>[]>(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  query: PageQuery<T>,
  ...alongside: A
): Promise<{ page: T; alongside: unknown[] }> {
  const { db } = ctx;
  const [, rows, media, ...extra] = await readTogether(db, [
    conversationAccessCheck(db, viewer, conversationId, "read"),
    allRows<MessageRow>(db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m ${query.sql}`).bind(...query.values)),
    allRows<ChatMediaRow>(
      db.prepare(messageMediaSql(`SELECT m.id FROM messages m ${query.sql}`)).bind(...query.values),
    ),
    ...alongside,
  ]);
  return { page: query.present(rows, media, viewer.id), alongside: extra };
}

/**
 * A page of a conversation, oldest first. Without a position: the newest page. `before`: the page older than
 * that seq (scrolling up). `after`: what came after that seq (a reconnecting socket catching up). Indexed on
 * (conversation_id, seq).
 */
function messagesQuery(conversationId: number, position: { before?: number; after?: number }): PageQuery<MessagePage> {
  if (position.after !== undefined)
    return {
      sql: "WHERE m.conversation_id = ?1 AND m.seq > ?2 ORDER BY m.seq LIMIT ?3",
      values: [conversationId, position.after, MESSAGES_AFTER_LIMIT],
      present: (rows, media, viewerId) => ({ messages: presentMessagesWith(rows, media, viewerId), nextBefore: null }),
    };
  return {
    sql: "WHERE m.conversation_id = ?1 AND m.seq < ?2 ORDER BY m.seq DESC LIMIT ?3",
    values: [conversationId, position.before ?? Number.MAX_SAFE_INTEGER, MESSAGES_PAGE_SIZE + 1],
    present(rows, media, viewerId) {
      const page = rows.slice(0, MESSAGES_PAGE_SIZE).reverse();
      return {
        messages: presentMessagesWith(page, media, viewerId),
        nextBefore: rows.length > MESSAGES_PAGE_SIZE ? page[0]!.seq : null,
      };
    },
  };
}

/** A page of a conversation (messagesQuery); one round trip with the access check. */
export async function listMessages(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  position: { before?: number; after?: number },
): Promise<MessagePage> {
  return (await readWithAccess(ctx, viewer, conversationId, messagesQuery(conversationId, position))).page;
}

const CHAT_MEDIA_PAGE_SIZE = 60;

/**
 * "Chat media" (spec §2): the photos and videos exchanged in a conversation, newest first, as the viewer sees them
 * (a locked pay-per-view file is its preview only). Keyset by message seq.
 */
function chatMediaQuery(
  conversationId: number,
  before: number | undefined,
): PageQuery<{ items: ChatMediaItem[]; nextBefore: number | null }> {
  return {
    sql: "WHERE m.conversation_id = ?1 AND m.media_count > 0 AND m.seq < ?2 ORDER BY m.seq DESC LIMIT ?3",
    values: [conversationId, before ?? Number.MAX_SAFE_INTEGER, CHAT_MEDIA_PAGE_SIZE + 1],
    present(rows, media, viewerId) {
      const page = rows.slice(0, CHAT_MEDIA_PAGE_SIZE);
      const messages = presentMessagesWith(page, media, viewerId);
      return {
        items: messages.flatMap((message) =>
          message.media.map((item) => ({
            messageId: message.id,
            seq: message.seq,
            media: item,
            locked: message.locked,
            priceCents: message.priceCents,
          })),
        ),
        nextBefore: rows.length > CHAT_MEDIA_PAGE_SIZE ? page.at(-1)!.seq : null,
      };
    },
  };
}

/** A page of a conversation's media (chatMediaQuery); one round trip with the access check. */
export async function listChatMedia(
  ctx: Pick<DomainContext, "db">,
  viewer: Viewer,
  conversationId: number,
  before: number | undefined,
) {
  return (await readWithAccess(ctx, viewer, conversationId, chatMediaQuery(conversationId, before))).page;
}

/** The /messages/{id} page: the conversation with its newest messages, or its first page of media; one round trip. */
export async function getThread(
  ctx: Pick<DomainContext, "db" | "t">,
  viewer: Viewer,
  conversationId: number,
): Promise<{ conversation: ConversationView; firstPage: MessagePage }> {
  const { page, alongside } = await readWithAccess(
    ctx,
    viewer,
    conversationId,
    messagesQuery(conversationId, {}),
    conversationRead(ctx, viewer, conversationId),
  );
  return { conversation: alongside[0] as ConversationView, firstPage: page };
}

/** The /messages/{id}?view=media page: the conversation with its first page of media; one round trip. */
export async function getThreadMedia(ctx: Pick<DomainContext, "db" | "t">, viewer: Viewer, conversationId: number) {
  const { page, alongside } = await readWithAccess(
    ctx,
    viewer,
    conversationId,
    chatMediaQuery(conversationId, undefined),
    conversationRead(ctx, viewer, conversationId),
  );
  return { conversation: alongside[0] as ConversationView, firstPage: page };
}
