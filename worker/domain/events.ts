import type { LiveEndReason } from "@shared/contracts/live-limits";
import type { NotificationKind } from "@shared/contracts/notifications";
import type { StoredMessage } from "./messages/present-messages";
import type { PushJob } from "./push/jobs";

/**
 * What domain commands announce once their write has committed: what happened, and to whom. Commands never
 * deliver anything themselves; delivery adapters (DELIVERY_ADAPTERS in worker/events/publisher.ts: the sockets and
 * chat rooms, web push through its Queue) subscribe to these and fan out after the answer, through `waitUntil`.
 *
 * Add an event here with the fields an adapter needs to reach the right people; never private content (a
 * locked post's text, a message body) to be used as it is: an adapter that needs it reads it under the recipient's
 * policy. The one record an event carries, MessageSent's `stored` (the message its command has just written, so
 * the chat's delivery costs no read), is only ever shown through that same policy (presentStored), and never goes
 * into a Queue message or a push payload.
 */
interface DomainEventMap {
  /**
   * A notification row for `userId` was recorded (follow, like, tip, payout…). `pushJobs`: the pushes it calls for
   * (device and notification ids), when the command read them in the batch that recorded it; absent, the push
   * adapter reads them.
   */
  NotificationCreated: { userId: number; kind: NotificationKind; pushJobs?: PushJob[] };
  /** What /api/updates sums up changed for these users without a new notification (read marks, a balance). */
  UpdatesChanged: { userIds: number[] };
  /** A post became visible to its audience: the author's followers have something new in their feed. */
  PostPublished: { authorId: number };
  /**
   * Sessions ended (sign-out, password change or reset, suspension, expiry): the ids of the rows deleted, never "all
   * of the user's", so a session opened since (a sign-in right after a reset) keeps its sockets.
   */
  SessionsEnded: { userId: number; sessionIds: number[] };
  /** `blockerId` blocked `blockedId`: neither may watch the other's live stream any more. */
  UserBlocked: { blockerId: number; blockedId: number };
  /**
   * A message was stored in the conversation of the pair userLow < userHigh (its ChatRoom's name). Adapters present
   * the message under each member's policy (a locked message's media are previews for its recipient), from
   * `stored`, the row and media the command has just written (nothing about a message changes between its batch
   * and its delivery but a purchase, which MessageUnlocked announces after), or else read from D1. `pushJobs`: the
   * recipient's devices that want it pushed, read in the batch that stored it (none for a tip's message: the tip's
   * notification is its push); absent, the push adapter reads them.
   */
  MessageSent: {
    conversationId: number;
    messageId: number;
    senderId: number;
    recipientId: number;
    userLow: number;
    userHigh: number;
    stored?: StoredMessage;
    pushJobs?: PushJob[];
  };
  /** A member read the conversation up to `seq`: the other member's screen shows "Seen". */
  MessagesRead: { conversationId: number; userLow: number; userHigh: number; readerId: number; seq: number };
  /** A pay-per-view message was bought by `buyerId`. */
  MessageUnlocked: {
    conversationId: number;
    messageId: number;
    buyerId: number;
    senderId: number;
    userLow: number;
    userHigh: number;
  };
  /** A creator went live: their followers and subscribers (notified in the same batch) hear of it. */
  LiveStarted: { streamId: number; creatorId: number };
  /** A stream ended: its LiveRoom tells every viewer and closes. */
  LiveEnded: { streamId: number; reason: LiveEndReason };
  /** A tip during a stream was paid (`paymentId`): its LiveRoom shows it to everyone, with the stream's new total. */
  LiveTipped: { streamId: number; paymentId: number };
}

type DomainEventType = keyof DomainEventMap;

/** One event: a discriminated union on `type`. */
export type DomainEvent = { [Type in DomainEventType]: { type: Type } & DomainEventMap[Type] }[DomainEventType];

/**
 * Announces an event. Returns at once: delivery runs after the answer and never fails the command (a lost
 * real-time signal is caught up by the client's 30-second poll).
 */
export type Publish = (event: DomainEvent) => void;

/** For code paths with nobody to tell (scripts, benchmarks). */
export const publishNowhere: Publish = () => {};
