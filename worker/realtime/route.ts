import type { Context } from "hono";
import { AppError } from "../domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { message } from "@shared/messages";
import { errorResponse, translateError } from "../http/errors";
import { CSRF_FAILED } from "../http/middleware";
import type { AppEnv } from "../http/types";
import type { CurrentSession } from "../domain/auth/sessions";
import { userChannelName } from "@shared/user-channel-events";
import { userChannelStub } from "./notify";
import { chatRoomName, requireConversationAccess } from "../domain/policies/conversations";
import { parseIdText } from "../domain/shared/validation";
import { requireLiveAccess, liveRoomName } from "../domain/policies/live";
import { roomStub, type RoomAddress } from "./rooms";
import { config } from "../env";
import type { LiveSocketGuest } from "./live-room";

/**
 * GET /ws/updates: opens the signed-in user's channel. The user comes only from the session (Bearer header or
 * the session cookie, resolved by middleware), never from the URL, so nobody can listen to another user.
 * A browser sends cookies with a cross-site WebSocket handshake, so another Origin is refused (hijacking).
 */
export async function openUserChannel(c: Context<AppEnv>): Promise<Response> {
  const admission = admitUpgrade(c);
  if (admission.refused) return admission.refused;
  const { session } = admission;
  // Only the upgrade goes on, with the session's id (to close its sockets when it ends), never a credential.
  const name = userChannelName(session.user.id);
  const upgrade = new Request(`https://user-channel.internal/${name}?session=${session.sessionId}`, {
    headers: { Upgrade: "websocket" },
  });
  return userChannelStub(c.env, session.user.id).fetch(upgrade);
}

/** The checks every socket route makes: a WebSocket upgrade, a session, and the app's own Origin (or none). */
function admitUpgrade(c: Context<AppEnv>): { refused: Response } | { refused: null; session: CurrentSession } {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    c.header("Upgrade", "websocket");
    return { refused: c.json(translateError(c.get("domain").t, new AppError("validation", INVALID_VALUE)), 426) };
  }
  const session = c.get("session");
  if (!session) return { refused: errorResponse(c, new AppError("unauthenticated", message("Unauthenticated."))) };
  const origin = c.req.header("Origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) {
    return { refused: errorResponse(c, new AppError("forbidden", CSRF_FAILED)) };
  }
  return { refused: null, session };
}

/**
 * Forwards an upgrade to a room, then tells the user's channel which room took a socket of this session, so that
 * the session's end reaches it there. If the session ended meanwhile (its end has been handled without this room),
 * the socket is closed at once; the client then asks whether it is still signed in.
 */
async function enterRoom(
  c: Context<AppEnv>,
  { user, sessionId }: CurrentSession,
  room: RoomAddress,
  upgrade: Request,
): Promise<Response> {
  const stub = roomStub(c.env, room);
  const response = await stub.fetch(upgrade);
  if (response.status !== 101) return response;
  try {
    if (!(await userChannelStub(c.env, user.id).enteredRoom(sessionId, room)))
      await stub.closeSessions(user.id, [sessionId]);
  } catch (error) {
    // Not remembered, the session's end could not reach this socket: it is not handed over (the room's end of it
    // closes with the dropped pair), and the client tries again later, as after any failed upgrade.
    console.warn(`the room ${room.name} was not remembered`, error);
    c.header("Retry-After", "5");
    return c.json({ message: c.get("domain").t("Something went wrong"), errors: {} }, 503);
  }
  return response;
}

/**
 * GET /ws/conversations/{id}: a socket on the conversation's ChatRoom, for its members only (anyone else: 404,
 * as for an id that does not exist). The room is addressed by the pair read from D1, never by the URL, and it
 * learns the member and the session from the session.
 */
export async function openChatRoom(c: Context<AppEnv>): Promise<Response> {
  const admission = admitUpgrade(c);
  if (admission.refused) return admission.refused;
  const { user, sessionId } = admission.session;
  const conversationId = parseIdText(c.req.param("id"));
  try {
    if (conversationId === null) throw new AppError("validation", INVALID_VALUE);
    const access = await requireConversationAccess(c.get("domain").db, user, conversationId, "read");
    const upgrade = new Request(`https://chat-room.internal/${conversationId}?user=${user.id}&session=${sessionId}`, {
      headers: { Upgrade: "websocket" },
    });
    return await enterRoom(
      c,
      admission.session,
      { kind: "chat", name: chatRoomName(access.userLow, access.userHigh) },
      upgrade,
    );
  } catch (error) {
    if (error instanceof AppError) return errorResponse(c, error);
    throw error;
  }
}

/**
 * GET /ws/live/{id}: a socket on the stream's LiveRoom, for its creator and for who may watch it (audience,
 * entry price paid, blocks, still live; anyone else gets the API's 4xx before any upgrade). The room is addressed
 * by the id read from D1, and learns the person, their language and the p2p cap from this route only.
 */
export async function openLiveRoom(c: Context<AppEnv>): Promise<Response> {
  const admission = admitUpgrade(c);
  if (admission.refused) return admission.refused;
  const { user, sessionId } = admission.session;
  const streamId = parseIdText(c.req.param("id"));
  try {
    if (streamId === null) throw new AppError("validation", INVALID_VALUE);
    const { stream } = await requireLiveAccess(c.get("domain").db, user, streamId, "watch");
    const settings = config(c.env);
    const guest: LiveSocketGuest = {
      streamId,
      creatorId: stream.creator_id,
      maxViewers: stream.transport === "p2p" ? settings.LIVE_P2P_MAX_VIEWERS : 0,
      userId: user.id,
      sessionId,
      username: user.username,
      name: user.name,
      language: c.get("domain").language,
    };
    const upgrade = new Request(
      `https://live-room.internal/${streamId}?guest=${encodeURIComponent(JSON.stringify(guest))}`,
      { headers: { Upgrade: "websocket" } },
    );
    return await enterRoom(c, admission.session, { kind: "live", name: liveRoomName(streamId) }, upgrade);
  } catch (error) {
    if (error instanceof AppError) return errorResponse(c, error);
    throw error;
  }
}
