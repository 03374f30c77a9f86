import type { Env } from "../env";
import type { DomainEvent } from "../domain/events";
import { followersToTell } from "../domain/follows/followers-to-tell";
import { presentMessageToEach, presentStored } from "../domain/messages/present-messages";
import { chatRoomName } from "../domain/policies/conversations";
import { liveRoomName } from "../domain/policies/live";
import { liveTipOf } from "../domain/live/live-tips";
import { disconnectSessions, FAN_OUT_LIMIT, notifyUser, notifyUsers } from "./notify";

/** The ChatRoom of the pair userLow < userHigh. */
export const chatRoomStub = (env: Env, userLow: number, userHigh: number) =>
  env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(chatRoomName(userLow, userHigh)));

/** The LiveRoom of a stream. */
export const liveRoomStub = (env: Env, streamId: number) =>
  env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(liveRoomName(streamId)));

/** A block either way: whichever of the two is live, the other leaves that stream's room (policies/live.ts). */
async function shutOutOfLiveStreams(env: Env, blockerId: number, blockedId: number): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT id, creator_id FROM live_streams WHERE status = 'live' AND creator_id IN (?1, ?2)",
  )
    .bind(blockerId, blockedId)
    .all<{ id: number; creator_id: number }>();
  await Promise.all(
    results.map((stream) =>
      liveRoomStub(env, stream.id).shutOut([stream.creator_id === blockerId ? blockedId : blockerId]),
    ),
  );
}

/**
 * The real-time socket adapter: turns a domain event into frames on the `updates.{userId}` channels of the
 * people it concerns (a NewUpdate: the client refetches /api/updates; ended sessions have their sockets closed,
 * there and in every room), on the conversation's ChatRoom (a message, presented for each member under their
 * policy; a read mark; a purchase) and on a stream's LiveRoom (its start and end, tips, a block that shuts a
 * viewer out).
 */
export async function deliverToSockets(env: Env, event: DomainEvent): Promise<void> {
  switch (event.type) {
    case "NotificationCreated":
      return notifyUser(env, event.userId);
    case "UpdatesChanged":
      return notifyUsers(env, event.userIds);
    case "PostPublished":
      // The author's other tabs too: their own feed shows the post.
      return notifyUsers(env, [event.authorId, ...(await followersToTell(env.DB, event.authorId, FAN_OUT_LIMIT))]);
    case "MessageSent": {
      const members = [event.senderId, event.recipientId];
      const { stored } = event;
      const views = stored
        ? new Map(members.map((userId) => [userId, presentStored(stored, userId)]))
        : await presentMessageToEach(env.DB, event.messageId, members);
      await Promise.all([
        chatRoomStub(env, event.userLow, event.userHigh).deliver(
          [...views].map(([userId, message]) => ({ userId, frame: { type: "message" as const, message } })),
        ),
        // The recipient's badge, wherever they are in the app.
        notifyUser(env, event.recipientId),
      ]);
      return;
    }
    case "MessagesRead": {
      const members = [event.userLow, event.userHigh];
      await Promise.all([
        chatRoomStub(env, event.userLow, event.userHigh).deliver(
          members.map((userId) => ({
            userId,
            frame: { type: "read" as const, userId: event.readerId, seq: event.seq },
          })),
        ),
        // The reader's badge in their other tabs.
        notifyUser(env, event.readerId),
      ]);
      return;
    }
    case "MessageUnlocked": {
      const views = await presentMessageToEach(env.DB, event.messageId, [event.buyerId, event.senderId]);
      await chatRoomStub(env, event.userLow, event.userHigh).deliver(
        [...views].map(([userId, message]) => ({
          userId,
          frame: { type: "unlocked" as const, messageId: event.messageId, message },
        })),
      );
      return;
    }
    case "LiveStarted":
      await Promise.all([
        // The room starts its silence clock even if the creator's socket never arrives.
        liveRoomStub(env, event.streamId).begin(event.streamId, event.creatorId),
        notifyUsers(env, [event.creatorId, ...(await followersToTell(env.DB, event.creatorId, FAN_OUT_LIMIT))]),
      ]);
      return;
    case "LiveEnded":
      return liveRoomStub(env, event.streamId).end(event.reason);
    case "LiveTipped": {
      const tip = await liveTipOf(env.DB, event.paymentId);
      if (tip) await liveRoomStub(env, event.streamId).tip(tip.line, tip.tipsCents);
      return;
    }
    case "SessionsEnded":
      return disconnectSessions(env, event.userId, event.sessionIds);
    case "UserBlocked":
      await shutOutOfLiveStreams(env, event.blockerId, event.blockedId);
      return;
  }
}
