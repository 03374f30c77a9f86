import type { Env } from "../env";
import type { DomainEvent } from "../domain/events";
import { followersToTell } from "../domain/follows/followers-to-tell";
import { disconnectSession, FAN_OUT_LIMIT, notifyUser, notifyUsers } from "./notify";

/**
 * The real-time socket adapter: turns a domain event into frames on the `updates.{userId}` channels of the
 * people it concerns. Today every change is a NewUpdate (the client refetches /api/updates); ended sessions
 * have their sockets closed.
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
    case "SessionsEnded":
      if (event.sessionIds === null) return disconnectSession(env, event.userId, null);
      await Promise.all(event.sessionIds.map((sessionId) => disconnectSession(env, event.userId, sessionId)));
      return;
  }
}
