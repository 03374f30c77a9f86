/**
 * The chat's shapes as the page receives them (the conversation list, a thread, the ChatRoom socket): written by
 * worker/domain/messages, read by app/routes/_shell.messages.($id).tsx. Plain types only.
 */
import type { ScaledImage } from "./posts";

interface ChatMember {
  userId: number;
  username: string;
  name: string;
  avatarUrl: string;
  isCreator: boolean;
}

/** One file of a message. A locked (pay-per-view, not bought) file has only its blurred preview. */
export interface ChatMediaView {
  id: number;
  kind: "image" | "video";
  url: string | null;
  posterUrl: string | null;
  previewUrl: string | null;
  width: number | null;
  height: number | null;
  /** Smaller copies of a photo, narrowest first; empty while the message is locked to the viewer. */
  scaled: ScaledImage[];
}

export interface MessageView {
  id: number;
  conversationId: number;
  seq: number;
  /** The id the sender's client chose; a resend with it stores nothing new. */
  clientId: string;
  senderId: number;
  text: string;
  createdAt: string;
  /** Pay-per-view price on a message with media (0: none). */
  priceCents: number;
  /** What the sender paid to send it (a fan writing to a creator with a per-message price). */
  paidCents: number;
  /** A tip sent from the conversation: what the sender tipped, the text being its note (0: not a tip). */
  tipCents: number;
  /** The viewer must unlock it to open its media. */
  locked: boolean;
  /** A pay-per-view message was bought by its recipient (the sender sees which of theirs sold). */
  purchased: boolean;
  media: ChatMediaView[];
}

/** What the viewer may do in a conversation. */
interface ConversationPermissions {
  canWrite: boolean;
  canSetPrice: boolean;
}

export interface ConversationView {
  id: number;
  other: ChatMember;
  unreadCount: number;
  /** When the conversation last had activity (null: nothing sent yet). */
  activityAt: string | null;
  lastMessage: {
    fromMe: boolean;
    text: string;
    mediaKind: "image" | "video" | null;
    locked: boolean;
    /** The last message was a tip of this much (0: not a tip). */
    tipCents: number;
    createdAt: string;
  } | null;
  /** The highest seq the other member has read: "Seen" under the viewer's messages up to it. */
  otherLastReadSeq: number;
  /** What the viewer pays per message they send here (a creator's per-message price; 0: free). */
  messagePriceCents: number;
  /** Why the viewer may not write, translated, when they may not. */
  writeRefusal: string | null;
  viewer: ConversationPermissions;
}

export interface ConversationPage {
  conversations: ConversationView[];
  nextCursor: string | null;
}

export interface MessagePage {
  messages: MessageView[];
  /** Pass as `before` for the older page; null at the first message. */
  nextBefore: number | null;
}

/** One file of "Chat media" (a conversation's gallery), with the message it came in. */
export interface ChatMediaItem {
  messageId: number;
  seq: number;
  media: ChatMediaView;
  locked: boolean;
  priceCents: number;
}

export type MassMessageAudience = "subscribers" | "followers" | "both";

export interface MassMessageView {
  id: number;
  audience: MassMessageAudience;
  text: string;
  priceCents: number;
  recipients: number;
  delivered: number;
  status: "sending" | "sent";
  createdAt: string;
}
