import type { DomainContext } from "../context";

/** Signs every device of the person out but this one; answers how many were. */
export async function endOtherSessions(
  ctx: Pick<DomainContext, "db" | "publish">,
  session: { sessionId: number; user: { id: number } },
) {
  const { results } = await ctx.db
    .prepare("DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id")
    .bind(session.user.id, session.sessionId)
    .all<{ id: number }>();
  if (results.length > 0)
    ctx.publish({ type: "SessionsEnded", userId: session.user.id, sessionIds: results.map((row) => row.id) });
  return results.length;
}
