import { translatorFor, type Translate } from "../i18n";
import type { NotificationKind } from "@shared/contracts/notifications";
import { audienceAdmits, findLiveAccess } from "../policies/live";
import { message } from "@shared/messages";
import { UNREAD_COUNT_CAP } from "../updates/get-updates";
import type { PushTopic } from "./jobs";
import { notificationPath } from "@shared/contracts/notification-links";

/**
 * What the service worker shows: a title and body in the device's language, the same-origin path a click
 * opens, a tag (a newer push with the same tag replaces the older one: one line per conversation) and the
 * app badge's count.
 *
 * A lock screen is public, so a payload never carries locked content (a post's text, media), the text of a
 * message that was paid for, sold or tipped, nor any amount of money: the app shows those once opened.
 */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  badge: number;
}

const GENERIC_MESSAGE_BODY = message("Open the conversation to read it.");
const TEST_TITLE = message("Test notification");
const TEST_BODY = message("Push notifications reach this device.");

/** Longest message text a push shows; the conversation has the rest. */
const BODY_LENGTH = 160;

/** The unread count /api/updates shows as badges (notifications + messages, each capped), for the app icon. */
async function badgeOf(db: D1Database, userId: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM notifications WHERE user_id = ?1 AND read_at IS NULL LIMIT ?2))
            + MIN((SELECT COALESCE(SUM(unread_count), 0) FROM conversation_members WHERE user_id = ?1 AND unread_count > 0), ?2) AS badge`,
    )
    .bind(userId, UNREAD_COUNT_CAP)
    .first<{ badge: number }>();
  return row?.badge ?? 0;
}

type Content = Omit<PushPayload, "badge">;

/**
 * The payload of `topic` for `userId` in `language`, read now; null when it no longer concerns them (the
 * message, post or notification is gone, or they are not its recipient), and nothing is sent.
 */
export async function pushPayloadFor(
  db: D1Database,
  userId: number,
  language: string,
  topic: PushTopic,
): Promise<PushPayload | null> {
  const t = translatorFor(language);
  const content = await contentOf(db, userId, t, topic);
  return content && { ...content, badge: await badgeOf(db, userId) };
}

async function contentOf(db: D1Database, userId: number, t: Translate, topic: PushTopic): Promise<Content | null> {
  switch (topic.type) {
    case "test":
      return { title: t(TEST_TITLE), body: t(TEST_BODY), url: "/settings/notifications", tag: "test" };
    case "message":
      return messageContent(db, userId, t, topic.messageId);
    case "post":
      return postContent(db, t, topic.postId);
    case "live":
      return liveContent(db, userId, t, topic.streamId);
    case "notification":
      return notificationContent(db, userId, t, topic.notificationId);
  }
}

interface MessageRow {
  conversation_id: number;
  text: string;
  price_cents: number;
  paid_cents: number;
  tip_cents: number;
  name: string;
}

/** A message to `userId` (never their own): its text only when nobody paid or charged for it. */
async function messageContent(
  db: D1Database,
  userId: number,
  t: Translate,
  messageId: number,
): Promise<Content | null> {
  const row = await db
    .prepare(
      `SELECT m.conversation_id, m.text, m.price_cents, m.paid_cents, m.tip_cents, u.name
       FROM messages m JOIN users u ON u.id = m.sender_id
       JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.user_id = ?2
       WHERE m.id = ?1 AND m.sender_id <> ?2`,
    )
    .bind(messageId, userId)
    .first<MessageRow>();
  if (!row) return null;
  const free = row.price_cents === 0 && row.paid_cents === 0 && row.tip_cents === 0;
  const text = row.text.replace(/\s+/g, " ").trim();
  return {
    title:
      row.tip_cents > 0
        ? t("{{name}} sent you a tip.", { name: row.name })
        : t("{{name}} sent you a message.", { name: row.name }),
    body:
      free && text
        ? text.length > BODY_LENGTH
          ? `${text.slice(0, BODY_LENGTH - 1)}…`
          : text
        : t(GENERIC_MESSAGE_BODY),
    url: `/messages/${row.conversation_id}`,
    tag: `conversation-${row.conversation_id}`,
  };
}

/** A new post of a followed creator: who posted, never what (the post may be locked for this follower). */
async function postContent(db: D1Database, t: Translate, postId: number): Promise<Content | null> {
  const row = await db
    .prepare(
      "SELECT p.id, u.name FROM posts p JOIN users u ON u.id = p.user_id WHERE p.id = ? AND p.status = 'published'",
    )
    .bind(postId)
    .first<{ id: number; name: string }>();
  if (!row) return null;
  return {
    title: t("{{name}} published a new post.", { name: row.name }),
    body: "",
    url: `/post/${row.id}`,
    tag: `post-${row.id}`,
  };
}

/** A creator went live: said only while the stream is live and its audience admits the recipient. */
async function liveContent(db: D1Database, userId: number, t: Translate, streamId: number): Promise<Content | null> {
  const access = (await findLiveAccess(db, { id: userId, role: "member" }, [streamId])).get(streamId);
  if (!access || access.stream.status !== "live" || !audienceAdmits(access.stream.audience, access.facts)) return null;
  return {
    title: t("{{name}} is live now: {{title}}", { name: access.stream.creator_name, title: access.stream.title }),
    body: "",
    url: `/live/${streamId}`,
    tag: `live-${streamId}`,
  };
}

interface NotificationRow {
  id: number;
  kind: NotificationKind;
  params: string;
  name: string | null;
  username: string | null;
}

/** The notification's sentence (the notifications screen's, less any amount) and the page it is about. */
async function notificationContent(
  db: D1Database,
  userId: number,
  t: Translate,
  notificationId: number,
): Promise<Content | null> {
  const row = await db
    .prepare(
      `SELECT n.id, n.kind, n.params, a.name, a.username FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
       WHERE n.id = ? AND n.user_id = ?`,
    )
    .bind(notificationId, userId)
    .first<NotificationRow>();
  if (!row) return null;
  const params = JSON.parse(row.params) as Record<string, string | number | undefined>;
  const name = row.name ?? "";
  const tag = `notification-${row.id}`;
  const url = notificationPath(row.kind, params, row.username) ?? "/notifications";
  const line = (title: string): Content => ({ title, body: "", url, tag });
  switch (row.kind) {
    case "test":
      return { title: t(TEST_TITLE), body: t(TEST_BODY), url, tag };
    case "follow":
      return line(t("{{name}} started following you.", { name }));
    case "subscription":
      return line(t("{{name}} subscribed to you.", { name }));
    case "tip":
      return line(t("{{name}} sent you a tip.", { name }));
    case "purchase":
      return line(t("{{name}} bought your post.", { name }));
    case "payout":
      return line(params.status === "paid" ? t("Your withdrawal has been paid.") : t("Your withdrawal was rejected."));
    case "creator_request":
      return line(
        params.status === "approved"
          ? t("Your creator application was approved. You are now a creator.")
          : t("Your creator application was not approved. Reason: {{reason}}", { reason: String(params.reason ?? "") }),
      );
    case "renewal_failed":
      return line(
        params.trial
          ? t("Your free trial of {{name}} has ended: your wallet could not pay the first period.", { name })
          : t("Your subscription to {{name}} has ended: your wallet could not pay the renewal.", { name }),
      );
    case "gift":
      return line(t("{{from}} gave you a subscription to {{name}}.", { from: String(params.from ?? ""), name }));
    case "top_up":
      return line(t("Money was added to your wallet."));
    case "like":
      return line(t("{{name}} liked your post.", { name }));
    case "comment":
      return line(t("{{name}} commented on your post.", { name }));
    case "message":
      return line(t("{{name}} sent you a message.", { name }));
    case "live":
      return line(t("{{name}} is live now: {{title}}", { name, title: String(params.title ?? "") }));
  }
}
