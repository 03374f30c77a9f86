import type { Env } from "../env";

/**
 * A room a person opened a socket in: a conversation's ChatRoom or a stream's LiveRoom, by its Durable Object's
 * name. The person's UserChannel keeps the rooms they entered, so that a session's end reaches its sockets there.
 */
export interface RoomAddress {
  kind: "chat" | "live";
  name: string;
}

/**
 * What every room does: takes an upgrade the Worker has checked, and when sessions end closes their sockets,
 * answering how many of the person's stay open.
 */
export interface SessionRoom {
  fetch(request: Request): Promise<Response>;
  closeSessions(userId: number, sessionIds: number[]): Promise<number>;
}

export const roomStub = (env: Env, room: RoomAddress): SessionRoom =>
  room.kind === "chat"
    ? env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(room.name))
    : env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(room.name));
