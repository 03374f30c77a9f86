import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";
import { confirmPassword } from "../accounts/confirm-password";
import { confirmSecondStep } from "./second-step";

/**
 * Turns two-step sign-in off; it needs the password and a code (authenticator or recovery), so that neither a
 * stolen session nor a stolen password alone can. The secret, the recovery codes, the trusted devices and any
 * waiting sign-in go with it.
 */
export async function turnOffTwoStep(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id" | "password_hash">,
  input: { password?: string; code?: string },
): Promise<void> {
  await confirmPassword(ctx, user, input.password);
  await confirmSecondStep(ctx, user, input.code);
  await ctx.db.batch(
    ["two_step", "two_step_recovery_codes", "two_step_trusted_devices", "two_step_challenges"].map((table) =>
      ctx.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).bind(user.id),
    ),
  );
}
