// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type {
  ChatMediaItem,
  ChatMediaView,
  ChatServerFrame,
  ConversationPage,
  ConversationView,
  MassMessageAudienceCount,
  MassMessageView,
  MessagePage,
  MessageView,
} from "@shared/contracts/messages";
import type { FanLists } from "@shared/contracts/fan-lists";
import {
  anyOf,
  array,
  boolean,
  nullable,
  number,
  literal,
  object,
  oneOf,
  orDefault,
  string,
  type Shape,
} from "@shared/shape";

const chatMediaShape: Shape<ChatMediaView> = object({
  id: number,
  kind: oneOf("image", "video"),
  url: nullable(string),
  posterUrl: nullable(string),
  previewUrl: nullable(string),
  width: nullable(number),
  height: nullable(number),
  scaled: orDefault(array(object({ width: number, url: string })), () => []),
  renditions: orDefault(
    array(
      object({
        name: oneOf("360p", "720p"),
        url: string,
        type: string,
        width: number,
        height: number,
        bitrate: number,
      }),
    ),
    () => [],
  ),
  hlsUrl: orDefault(nullable(string), () => null),
});

export const messageShape: Shape<MessageView> = object({
  id: number,
  conversationId: number,
  seq: number,
  clientId: string,
  senderId: number,
  text: string,
  createdAt: string,
  priceCents: number,
  paidCents: number,
  tipCents: number,
  locked: boolean,
  purchased: boolean,
  media: array(chatMediaShape),
});

export const conversationShape: Shape<ConversationView> = object({
  id: number,
  other: object({ userId: number, username: string, name: string, avatarUrl: string, isCreator: boolean }),
  unreadCount: number,
  activityAt: nullable(string),
  lastMessage: nullable(
    object({
      fromMe: boolean,
      text: string,
      mediaKind: nullable(oneOf("image", "video")),
      locked: boolean,
      tipCents: number,
      createdAt: string,
    }),
  ),
  otherLastReadSeq: number,
  messagePriceCents: number,
  writeRefusal: nullable(string),
  viewer: object({ canWrite: boolean, canSetPrice: boolean }),
});

export const conversationPageShape: Shape<ConversationPage> = object({
  conversations: array(conversationShape),
  nextCursor: nullable(string),
});

export const messagePageShape: Shape<MessagePage> = object({
  messages: array(messageShape),
  nextBefore: nullable(number),
});

export const sentShape: Shape<{ message: MessageView; replayed: boolean }> = object({
  message: messageShape,
  replayed: boolean,
});

export const chatMediaPageShape: Shape<{ items: ChatMediaItem[]; nextBefore: number | null }> = object({
  items: array(object({ messageId: number, seq: number, media: chatMediaShape, locked: boolean, priceCents: number })),
  nextBefore: nullable(number),
});

export const massMessageShape: Shape<MassMessageView> = object({
  id: number,
  include: array(string),
  exclude: array(string),
  text: string,
  priceCents: number,
  mediaIds: array(number),
  status: oneOf("scheduled", "sending", "sent", "cancelled", "unsent"),
  sendAt: string,
  recipients: number,
  delivered: number,
  read: number,
  unlocked: number,
  revenueCents: number,
  createdAt: string,
  viewer: object({ canEdit: boolean, canUnsend: boolean }),
});

export const massMessageListShape: Shape<{ massMessages: MassMessageView[] }> = object({
  massMessages: array(massMessageShape),
});

export const massAudienceCountShape: Shape<MassMessageAudienceCount> = object({ recipients: number });

export const massListChoicesShape: Shape<FanLists> = object({
  lists: array(object({ ref: string, kind: oneOf("system", "custom"), name: nullable(string), count: number })),
});

export const chatServerFrameShape: Shape<ChatServerFrame> = anyOf(
  object({ type: literal("message"), message: messageShape }),
  object({ type: literal("typing"), userId: number }),
  object({ type: literal("read"), userId: number, seq: number }),
  object({ type: literal("unlocked"), messageId: number, message: messageShape }),
);
