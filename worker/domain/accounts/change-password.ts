import type { ChangePasswordInput } from "@shared/contracts/accounts";
import { hashPassword, passwordHashParams } from "../auth/password";
import { spendTokensStatement } from "../auth/one-time-tokens";
import type { CurrentSession } from "../auth/sessions";
import type { DomainContext } from "../context";
import { isoNow } from "../shared/time";
import { confirmPassword } from "./confirm-password";

/**
 * Sets a new password after checking the current one, and ends every other session of the account (ASVS: a
 * password change revokes sessions); the one that made the change stays signed in. Outstanding one-time links
 * (a password reset asked for earlier) are spent in the same batch, and a pending email change's link, signed
 * over the old password's hash, no longer checks (signed-links.ts).
 */
export async function changePassword(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  session: Pick<CurrentSession, "user" | "sessionId">,
  input: ChangePasswordInput,
): Promise<void> {
  const { user, sessionId } = session;
  await confirmPassword(ctx, user, input.password);
  const passwordHash = await hashPassword(input.newPassword, passwordHashParams(ctx.config));
  const at = isoNow();
  const [, revoked] = await ctx.db.batch<{ id: number }>([
    ctx.db.prepare("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?").bind(passwordHash, at, user.id),
    ctx.db.prepare("DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id").bind(user.id, sessionId),
    spendTokensStatement(ctx.db, user.id, at),
  ]);
  // Their sockets go with them.
  ctx.publish({ type: "SessionsEnded", userId: user.id, sessionIds: (revoked?.results ?? []).map((row) => row.id) });
}
