import type { Env } from "../env";
import { userChannelName, type UserChannelEvent } from "@shared/user-channel-events";

/** The user's `updates.{userId}` Durable Object. */
export const userChannelStub = (env: Env, userId: number) =>
  env.USER_CHANNEL.get(env.USER_CHANNEL.idFromName(userChannelName(userId)));

/**
 * Pushes `event` to every open socket of the user (their `updates.{userId}` channel). Best effort: it never
 * throws, a failure is only logged, and clients still poll every 30 s. Used by the socket adapter
 * (socket-delivery.ts), which turns the domain's events into these calls after the answer; domain code never
 * calls it.
 *
 * A user without open sockets costs one call to an idle Durable Object that reads no storage.
 */
export async function notifyUser(
  env: Env,
  userId: number,
  event: UserChannelEvent = { event: "NewUpdate" },
): Promise<void> {
  try {
    await userChannelStub(env, userId).broadcast(event);
  } catch (error) {
    console.warn(`notifyUser(${userId}, ${event.event}) failed`, error);
  }
}

/**
 * Closes the sockets these sessions opened, on the user's channel and in every chat and live room (code 4401, the
 * client then stops reconnecting). Best effort like notifyUser; after the rows are gone (SessionsEnded).
 */
export async function disconnectSessions(env: Env, userId: number, sessionIds: number[]): Promise<void> {
  try {
    await userChannelStub(env, userId).disconnectSessions(userId, sessionIds);
  } catch (error) {
    console.warn(`disconnectSessions(${userId}) failed`, error);
  }
}

/** Fan-out cap for one event: beyond it, the 30-second poll of /api/updates tells the rest. */
export const FAN_OUT_LIMIT = 5000;

/** notifyUser for many users, a few at a time, never throwing (a new post reaches its followers this way). */
export async function notifyUsers(
  env: Env,
  userIds: number[],
  event: UserChannelEvent = { event: "NewUpdate" },
): Promise<void> {
  const ids = userIds.slice(0, FAN_OUT_LIMIT);
  for (let start = 0; start < ids.length; start += 50) {
    await Promise.all(ids.slice(start, start + 50).map((id) => notifyUser(env, id, event)));
  }
}
