import type { Context } from "hono";
import { AppError, INVALID_VALUE } from "../domain/shared/errors";
import { message } from "../domain/shared/messages";
import { errorResponse, translateError } from "../http/errors";
import { CSRF_FAILED } from "../http/middleware";
import type { AppEnv } from "../http/types";
import { userChannelName } from "@shared/user-channel-events";
import { userChannelStub } from "./notify";

/**
 * GET /ws/updates: opens the signed-in user's channel. The user comes only from the session (Bearer header or
 * the session cookie, resolved by middleware), never from the URL, so nobody can listen to another user.
 * A browser sends cookies with a cross-site WebSocket handshake, so another Origin is refused (hijacking).
 */
export async function openUserChannel(c: Context<AppEnv>): Promise<Response> {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    c.header("Upgrade", "websocket");
    return c.json(translateError(c.var.domain.t, new AppError("validation", INVALID_VALUE)), 426);
  }
  const session = c.var.session;
  if (!session) return errorResponse(c, new AppError("unauthenticated", message("Unauthenticated.")));
  const origin = c.req.header("Origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) {
    return errorResponse(c, new AppError("forbidden", CSRF_FAILED));
  }
  // Only the upgrade goes on, with the session's id (to close its sockets when it ends), never a credential.
  const name = userChannelName(session.user.id);
  const upgrade = new Request(`https://user-channel.internal/${name}?session=${session.sessionId}`, { headers: { Upgrade: "websocket" } });
  return userChannelStub(c.env, session.user.id).fetch(upgrade);
}
