import type { ChatMediaView, MessageView } from "@shared/contracts/messages";
import { hlsUrlOf, readyRenditionsJsonSql, renditionViewsOf } from "../media/playback";
import { servedImageOf, type ServedKeys } from "../media/scaled-images";

export type { MessageView };

export interface MessageRow {
  id: number;
  conversation_id: number;
  seq: number;
  sender_id: number;
  client_id: string;
  text: string;
  price_cents: number;
  paid_cents: number;
  tip_cents: number;
  media_count: number;
  created_at: string;
  /** 1 when someone other than the sender bought it (in a pair: the recipient). */
  bought: number;
}

/** Columns of `messages m` that presentMessages needs, the purchase fact included. */
export const MESSAGE_COLUMNS = `m.id, m.conversation_id, m.seq, m.sender_id, m.client_id, m.text, m.price_cents, m.paid_cents, m.tip_cents, m.media_count, m.created_at,
  EXISTS (SELECT 1 FROM message_purchases mp WHERE mp.message_id = m.id AND mp.user_id <> m.sender_id) AS bought`;

export interface ChatMediaRow extends ServedKeys {
  id: number;
  message_id: number;
  kind: "image" | "video";
  poster_key: string | null;
  preview_key: string | null;
  width: number | null;
  height: number | null;
  stream_uid: string | null;
  /** Its ready renditions (playback.ts readyRenditionsJsonSql). */
  renditions_json: string;
}

/**
 * The pure rule of a message's media: its members open them, except the recipient of a pay-per-view message
 * they have not bought, who gets the blurred previews only (the same rule as /media, worker/domain/policies/media.ts).
 */
const isMessageLockedFor = (row: Pick<MessageRow, "price_cents" | "sender_id" | "bought">, viewerId: number) =>
  row.price_cents > 0 && row.sender_id !== viewerId && row.bought !== 1;

/**
 * The media of the messages whose ids `messageIdsSql` selects (a subquery, or json_each of a list), in their order:
 * what a page of messages needs besides the messages, so a page can ask for both at once (list-messages.ts).
 */
export const messageMediaSql = (messageIdsSql: string) =>
  `SELECT m.id, mm.message_id, m.kind, m.object_key, m.poster_key, m.preview_key, m.width, m.height, m.w640_key, m.w1280_key,
     m.marked_key, m.stream_uid, ${readyRenditionsJsonSql("m.id")} AS renditions_json
   FROM message_media mm JOIN media m ON m.id = mm.media_id
   WHERE mm.message_id IN (${messageIdsSql}) ORDER BY mm.message_id, mm.position`;

const byMessage = (rows: ChatMediaRow[]) => {
  const mediaByMessage = new Map<number, ChatMediaRow[]>();
  for (const media of rows)
    mediaByMessage.set(media.message_id, [...(mediaByMessage.get(media.message_id) ?? []), media]);
  return mediaByMessage;
};

/** The media of `rows`, by message: one statement for all of them (none when no row has media). */
async function mediaOf(db: D1Database, rows: MessageRow[]): Promise<Map<number, ChatMediaRow[]>> {
  const withMedia = rows.filter((row) => row.media_count > 0).map((row) => row.id);
  if (withMedia.length === 0) return new Map();
  const { results } = await db
    .prepare(messageMediaSql("SELECT value FROM json_each(?1)"))
    .bind(JSON.stringify(withMedia))
    .all<ChatMediaRow>();
  return byMessage(results);
}

function present(row: MessageRow, media: ChatMediaRow[], viewerId: number): MessageView {
  const locked = isMessageLockedFor(row, viewerId);
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    clientId: row.client_id,
    senderId: row.sender_id,
    text: row.text,
    createdAt: row.created_at,
    priceCents: row.price_cents,
    paidCents: row.paid_cents,
    tipCents: row.tip_cents,
    locked,
    purchased: row.bought === 1,
    media: media.map((m): ChatMediaView => {
      const served = servedImageOf(m, viewerId === row.sender_id);
      return {
        id: m.id,
        kind: m.kind,
        url: locked ? null : served.url,
        posterUrl: !locked && m.poster_key ? `/media/${m.poster_key}` : null,
        previewUrl: m.preview_key ? `/media/${m.preview_key}` : null,
        width: m.width,
        height: m.height,
        scaled: locked ? [] : served.scaled,
        renditions: locked ? [] : renditionViewsOf(m.renditions_json),
        hlsUrl: locked ? null : hlsUrlOf(m.object_key, m.stream_uid),
      };
    }),
  };
}

/** Messages as `viewerId` (a member of their conversation) sees them: one statement for all their media. */
export async function presentMessages(db: D1Database, viewerId: number, rows: MessageRow[]): Promise<MessageView[]> {
  const media = await mediaOf(db, rows);
  return rows.map((row) => present(row, media.get(row.id) ?? [], viewerId));
}

/** Messages as `viewerId` sees them, with their media already read (`media`: rows of messageMediaSql). */
export function presentMessagesWith(rows: MessageRow[], media: ChatMediaRow[], viewerId: number): MessageView[] {
  const mediaByMessage = byMessage(media);
  return rows.map((row) => present(row, mediaByMessage.get(row.id) ?? [], viewerId));
}

/**
 * A message as stored, with its media: everything any member's view of it is made of. A command that has just
 * stored a message hands this to its MessageSent event, so the delivery presents it to each member without
 * reading it back (worker/realtime/socket-delivery.ts).
 */
export interface StoredMessage {
  row: MessageRow;
  media: ChatMediaRow[];
}

/** `row` with its media: no statement when it has none, else one. */
export async function storedMessage(db: D1Database, row: MessageRow): Promise<StoredMessage> {
  return { row, media: (await mediaOf(db, [row])).get(row.id) ?? [] };
}

/** A stored message as `viewerId` (a member of its conversation) sees it. */
export const presentStored = (stored: StoredMessage, viewerId: number): MessageView =>
  present(stored.row, stored.media, viewerId);

/** One message as each of `viewerIds` (its conversation's members) sees it: two statements at most for all. */
export async function presentMessageToEach(
  db: D1Database,
  messageId: number,
  viewerIds: number[],
): Promise<Map<number, MessageView>> {
  const row = await db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`)
    .bind(messageId)
    .first<MessageRow>();
  if (!row) return new Map();
  const stored = await storedMessage(db, row);
  return new Map(viewerIds.map((viewerId) => [viewerId, presentStored(stored, viewerId)]));
}

/** One message by id, as `viewerId` sees it (the caller has checked membership). */
export async function presentMessageById(
  db: D1Database,
  viewerId: number,
  messageId: number,
): Promise<MessageView | null> {
  return (await presentMessageToEach(db, messageId, [viewerId])).get(viewerId) ?? null;
}
