import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";

const SESSION_NOT_FOUND = message("This device is not signed in to your account.");

type SignedIn = { sessionId: number; user: { id: number } };

/**
 * Signs one of the person's devices out: its session is deleted, its sockets close and the isolates' copies go
 * (SessionsEnded). Another person's session is a 404, like one that never was.
 */
export async function endSession(ctx: Pick<DomainContext, "db" | "publish">, session: SignedIn, sessionId: number) {
  const ended = await ctx.db
    .prepare("DELETE FROM sessions WHERE id = ? AND user_id = ? RETURNING id")
    .bind(sessionId, session.user.id)
    .first<{ id: number }>();
  if (!ended) throw new AppError("not_found", SESSION_NOT_FOUND);
  ctx.publish({ type: "SessionsEnded", userId: session.user.id, sessionIds: [ended.id] });
}
