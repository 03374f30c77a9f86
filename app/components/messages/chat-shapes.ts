import { messageViewSchema } from "@shared/chat-events";
import type {
  ChatMediaItem,
  ConversationPage,
  ConversationView,
  MassMessageView,
  MessagePage,
  MessageView,
} from "@shared/contracts/messages";
import { array, boolean, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";
import { scaledImagesShape } from "~/lib/api-shapes";

/**
 * The chat API's answers as the chat screens check them. A message is checked by the socket's zod schema (one
 * description of a message for both ways it arrives); zod/mini is in this chunk only, never the first load.
 */
export const messageShape: Shape<MessageView> = (value) => messageViewSchema.parse(value);

const mediaKind = nullable(oneOf("image", "video"));

const chatMediaShape = object({
  id: number,
  kind: oneOf("image", "video"),
  url: nullable(string),
  posterUrl: nullable(string),
  previewUrl: nullable(string),
  width: nullable(number),
  height: nullable(number),
  scaled: scaledImagesShape,
});

export const conversationShape: Shape<ConversationView> = object({
  id: number,
  other: object({ userId: number, username: string, name: string, avatarUrl: string, isCreator: boolean }),
  unreadCount: number,
  activityAt: nullable(string),
  lastMessage: nullable(
    object({ fromMe: boolean, text: string, mediaKind, locked: boolean, tipCents: number, createdAt: string }),
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
export const sentShape: Shape<{ message: MessageView }> = object({ message: messageShape });

export const chatMediaPageShape: Shape<{ items: ChatMediaItem[]; nextBefore: number | null }> = object({
  items: array(object({ messageId: number, seq: number, media: chatMediaShape, locked: boolean, priceCents: number })),
  nextBefore: nullable(number),
});

export const massMessageShape: Shape<MassMessageView> = object({
  id: number,
  audience: oneOf("subscribers", "followers", "both"),
  text: string,
  priceCents: number,
  recipients: number,
  delivered: number,
  status: oneOf("sending", "sent"),
  createdAt: string,
});
export const massMessageListShape: Shape<{ massMessages: MassMessageView[] }> = object({
  massMessages: array(massMessageShape),
});
