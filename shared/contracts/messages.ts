/**
 * The chat's answers (the conversation list, a thread, its media, mass messages) and the ChatRoom socket's frames:
 * written by worker/domain/messages and worker/realtime/chat-room.ts, documented by worker/api, checked by the page
 * (app/components/messages/chat-shapes.ts, generated from these schemas). The page imports types only from here: a
 * value import would bring zod into its bundle.
 */
import { z } from "zod";
import { PaymentSchema } from "./money";
import { ScaledImageSchema } from "./posts";
import { videoPlaybackFields } from "./renditions";

const MediaKindSchema = z.enum(["image", "video"]);

/** One file of a message. A locked (pay-per-view, not bought) file has only its blurred preview. */
export const ChatMediaSchema = z
  .object({
    id: z.number().int(),
    kind: MediaKindSchema,
    url: z.string().nullable().meta({ description: "null while the message is locked for the caller" }),
    posterUrl: z.string().nullable(),
    previewUrl: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    // Messages stored before photos had copies (offline copies) have none.
    scaled: z.array(ScaledImageSchema).default([]).meta({
      description: "Smaller copies of a photo, narrowest first; empty while the message is locked for the caller",
    }),
    // Empty and null while the message is locked for the caller.
    ...videoPlaybackFields,
  })
  .meta({ id: "ChatMedia" });
export type ChatMediaView = z.infer<typeof ChatMediaSchema>;

export const ChatMessageSchema = z
  .object({
    id: z.number().int(),
    conversationId: z.number().int(),
    seq: z.number().int().meta({ description: "Position in the conversation, 1, 2, 3…" }),
    clientId: z.string().meta({ description: "The id the sender's client chose; a resend with it stores nothing new" }),
    senderId: z.number().int(),
    text: z.string(),
    createdAt: z.string(),
    priceCents: z.number().int().meta({ description: "Pay-per-view price on a message with media (0: none)" }),
    paidCents: z
      .number()
      .int()
      .meta({ description: "What the sender paid to send it (a fan writing to a creator with a per-message price)" }),
    tipCents: z
      .number()
      .int()
      .meta({ description: "A tip sent from the conversation: its amount, the text being its note (0: not a tip)" }),
    locked: z.boolean().meta({ description: "The viewer must unlock it to open its media" }),
    purchased: z
      .boolean()
      .meta({ description: "A pay-per-view message was bought by its recipient (the sender sees which sold)" }),
    media: z.array(ChatMediaSchema),
  })
  .meta({ id: "ChatMessage" });
export type MessageView = z.infer<typeof ChatMessageSchema>;

export const ConversationSchema = z
  .object({
    id: z.number().int(),
    other: z.object({
      userId: z.number().int(),
      username: z.string(),
      name: z.string(),
      avatarUrl: z.string(),
      isCreator: z.boolean(),
    }),
    unreadCount: z.number().int(),
    activityAt: z
      .string()
      .nullable()
      .meta({ description: "When the conversation last had activity (null: nothing sent yet)" }),
    lastMessage: z
      .object({
        fromMe: z.boolean(),
        text: z.string(),
        mediaKind: MediaKindSchema.nullable(),
        locked: z.boolean(),
        tipCents: z.number().int().meta({ description: "The last message was a tip of this much (0: not a tip)" }),
        createdAt: z.string(),
      })
      .nullable(),
    otherLastReadSeq: z
      .number()
      .int()
      .meta({ description: 'The highest seq the other member has read: "Seen" under the viewer\'s messages up to it' }),
    messagePriceCents: z.number().int().meta({
      description: "What the viewer pays per message they send here (a creator's per-message price; 0: free)",
    }),
    writeRefusal: z
      .string()
      .nullable()
      .meta({ description: "Why the viewer may not write, translated, when they may not" }),
    viewer: z.object({ canWrite: z.boolean(), canSetPrice: z.boolean() }),
  })
  .meta({ id: "Conversation" });
export type ConversationView = z.infer<typeof ConversationSchema>;

export const ConversationPageSchema = z
  .object({ conversations: z.array(ConversationSchema), nextCursor: z.string().nullable() })
  .meta({ id: "ConversationPage" });
export type ConversationPage = z.infer<typeof ConversationPageSchema>;

export const MessagePageSchema = z
  .object({
    messages: z.array(ChatMessageSchema),
    nextBefore: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Pass as `before` for the older page; null at the first message" }),
  })
  .meta({ id: "MessagePage" });
export type MessagePage = z.infer<typeof MessagePageSchema>;

/** Marking a conversation read: the seq the caller has now read up to. */
export const ReadMarkSchema = z.object({ lastReadSeq: z.number().int() }).meta({ id: "ReadMark" });

/** The answer to a send in a conversation: the message it made. */
export const SentMessageSchema = z
  .object({
    message: ChatMessageSchema,
    replayed: z.boolean().meta({ description: "The request was made before (same clientId or idempotency key)" }),
  })
  .meta({ id: "SentMessage" });

/** The answer to a payment in a conversation (a tip, an unlock): the message it made or opened, and its payment. */
export const PaidMessageSchema = SentMessageSchema.extend({ payment: PaymentSchema }).meta({ id: "PaidMessage" });
export type PaidMessage = z.infer<typeof PaidMessageSchema>;

/** One file of "Chat media" (a conversation's gallery), with the message it came in. */
const ChatMediaItemSchema = z.object({
  messageId: z.number().int(),
  seq: z.number().int(),
  media: ChatMediaSchema,
  locked: z.boolean(),
  priceCents: z.number().int(),
});
export type ChatMediaItem = z.infer<typeof ChatMediaItemSchema>;

export const ChatMediaPageSchema = z
  .object({ items: z.array(ChatMediaItemSchema), nextBefore: z.number().int().nullable() })
  .meta({ id: "ChatMediaPage" });

const MASS_MESSAGE_STATUSES = ["scheduled", "sending", "sent", "cancelled", "unsent"] as const;
export type MassMessageStatus = (typeof MASS_MESSAGE_STATUSES)[number];

export const MassMessageSchema = z
  .object({
    id: z.number().int(),
    include: z.array(z.string()).meta({ description: "The lists (ListRef) it goes to" }),
    exclude: z.array(z.string()).meta({ description: "The lists (ListRef) it skips: a fan in both is skipped" }),
    text: z.string(),
    priceCents: z.number().int(),
    mediaIds: z.array(z.number().int()),
    status: z.enum(MASS_MESSAGE_STATUSES),
    sendAt: z.string().meta({ description: "When it goes (scheduled) or went" }),
    recipients: z
      .number()
      .int()
      .meta({ description: "Fans in the audience when it started going (0 while scheduled)" }),
    delivered: z.number().int().meta({ description: "Copies sent so far" }),
    read: z.number().int().meta({ description: "Copies their fan has read" }),
    unlocked: z.number().int().meta({ description: "Copies bought (pay-per-view)" }),
    revenueCents: z.number().int().meta({ description: "What the copies bought were paid, in all" }),
    createdAt: z.string(),
    viewer: z.object({
      canEdit: z
        .boolean()
        .meta({ description: "Scheduled: its text, price, media, lists and time may change, or it may be cancelled" }),
      canUnsend: z.boolean().meta({ description: "Sent: the copies not bought may be taken back" }),
    }),
  })
  .meta({ id: "MassMessage" });
export type MassMessageView = z.infer<typeof MassMessageSchema>;

export const MassMessageListSchema = z
  .object({ massMessages: z.array(MassMessageSchema) })
  .meta({ id: "MassMessageList" });

/** How many fans an include/exclude choice reaches now, before sending. */
export const MassMessageAudienceCountSchema = z
  .object({ recipients: z.number().int() })
  .meta({ id: "MassMessageAudienceCount" });
export type MassMessageAudienceCount = z.infer<typeof MassMessageAudienceCountSchema>;

/**
 * The ChatRoom socket (one Durable Object per conversation), server → browser: every frame is a JSON text frame.
 * Keep-alive is the user channel's "ping"/"pong".
 */
export const ChatServerFrameSchema = z.discriminatedUnion("type", [
  /** A new message, presented for the socket's member (a locked message's media are previews only). */
  z.object({ type: z.literal("message"), message: ChatMessageSchema }),
  /** The other member is typing (shown for a few seconds). */
  z.object({ type: z.literal("typing"), userId: z.number().int() }),
  /** A member has read up to `seq`: "Seen". */
  z.object({ type: z.literal("read"), userId: z.number().int(), seq: z.number().int() }),
  /** A pay-per-view message was bought: the sender's screen marks it sold, the buyer's opens it. */
  z.object({ type: z.literal("unlocked"), messageId: z.number().int(), message: ChatMessageSchema }),
]);
export type ChatServerFrame = z.infer<typeof ChatServerFrameSchema>;

/** Browser → server: only "typing" (sends go through the API, which charges, stores and orders them). */
export const ChatClientFrameSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("typing") })]);
export type ChatClientFrame = z.infer<typeof ChatClientFrameSchema>;
