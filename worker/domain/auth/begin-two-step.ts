import { message } from "@shared/messages";
import type { TwoStepSetup } from "@shared/contracts/two-step";
import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { base32Encode, newTotpSecret, otpauthUri } from "./totp";
import { encryptSecret } from "./two-step-secret";

export const ALREADY_ON = message("Two-step sign-in is already on.");
/** The name an authenticator app lists the account under. */
const ISSUER = "Fanclub";

/**
 * Starts turning two-step sign-in on: a new secret for the authenticator app, kept (encrypted) but not in force
 * until a code made from it is confirmed (turnOnTwoStep). Starting again replaces a secret not yet confirmed.
 */
export async function beginTwoStep(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id" | "email">,
): Promise<TwoStepSetup> {
  const secret = newTotpSecret();
  const stored = await ctx.db
    .prepare(
      `INSERT INTO two_step (user_id, secret, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
       WHERE two_step.enabled_at IS NULL`,
    )
    .bind(user.id, await encryptSecret(ctx.config.APP_SECRET, secret), isoNow())
    .run();
  if (stored.meta.changes !== 1) throw new AppError("conflict", ALREADY_ON);
  const text = base32Encode(secret);
  return { secret: text, uri: otpauthUri(ISSUER, user.email, text) };
}
