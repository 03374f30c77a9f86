import { config, vapidOf, type Env } from "../env";
import type { DomainEvent } from "../domain/events";
import { followersToTell } from "../domain/follows/followers-to-tell";
import { liveAudienceToTell } from "../domain/live/live-tips";
import type { PushJob, PushTopic } from "../domain/push/jobs";
import type { PushKind } from "@shared/contracts/push-kinds";
import { devicesWanting, notificationPushStatement, pushJobsOf } from "../domain/push/settings";
import { enqueuePush } from "./queue";

/** Followers pushed about one new post, most recent first; the rest see it in their feed (as with sockets). */
const PUSH_FAN_OUT_LIMIT = 5000;

/**
 * The web push adapter: turns a domain event into one Queue message per device to reach (the people it
 * concerns who want that kind of push), so the sending (encryption, the push services' answers, retries) runs
 * in the consumer, never on a request's path. Without VAPID keys it does nothing.
 */
export async function deliverToPush(env: Env, event: DomainEvent): Promise<void> {
  if (!vapidOf(config(env))) return;
  const jobs = await jobsFor(env.DB, event);
  await enqueuePush(env, jobs);
}

async function jobsFor(db: D1Database, event: DomainEvent): Promise<PushJob[]> {
  switch (event.type) {
    case "MessageSent":
      return (
        event.pushJobs ??
        toDevices(db, [event.recipientId], "messages", { type: "message", messageId: event.messageId })
      );
    case "NotificationCreated":
      // The command read the devices in the batch that recorded it (notificationStatements): no round trip here.
      // Otherwise the one statement finds the newest notification of that kind and the devices that want it.
      return event.pushJobs ?? pushJobsOf(await notificationPushStatement(db, event.userId, event.kind).all());
    case "PostPublished": {
      const post = await db
        .prepare(
          "SELECT id FROM posts WHERE user_id = ? AND status = 'published' ORDER BY published_at DESC, id DESC LIMIT 1",
        )
        .bind(event.authorId)
        .first<{ id: number }>();
      return post
        ? toDevices(db, await followersToTell(db, event.authorId, PUSH_FAN_OUT_LIMIT), "posts", {
            type: "post",
            postId: post.id,
          })
        : [];
    }
    case "LiveStarted":
      return toDevices(db, await liveAudienceToTell(db, event.creatorId, PUSH_FAN_OUT_LIMIT), "live", {
        type: "live",
        streamId: event.streamId,
      });
    case "LiveEnded":
    case "LiveTipped":
    case "UpdatesChanged":
    case "SessionsEnded":
    case "UserBlocked":
    case "MessagesRead":
    case "MessageUnlocked":
      return [];
  }
}

const toDevices = async (
  db: D1Database,
  userIds: number[],
  kind: PushKind | null,
  topic: PushTopic,
): Promise<PushJob[]> => (await devicesWanting(db, userIds, kind)).map((subscriptionId) => ({ subscriptionId, topic }));
