import { generateRegistrationOptions } from "@simplewebauthn/server";
import type { RegistrationOptions } from "@shared/contracts/passkeys";
import { confirmPassword } from "../accounts/confirm-password";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { CEREMONY_TIMEOUT_MS, saveChallengeStatement } from "./challenges";
import { relyingPartyOf, SUPPORTED_ALGORITHMS, userHandleBytes } from "./relying-party";

/**
 * The first step of adding a passkey: the account's password (a stolen session must not add a lasting way in;
 * wrong ones count as at every re-check), then the options for navigator.credentials.create. The key must be
 * discoverable (sign-in names no account) and verify its user (it stands for both steps of two-step sign-in);
 * the account's keys are excluded, so an authenticator that has one already says so instead of making another.
 */
export async function startPasskeyRegistration(
  ctx: Pick<DomainContext, "db" | "config" | "origin">,
  user: UserRow,
  password: string | undefined,
): Promise<RegistrationOptions> {
  await confirmPassword(ctx, user, password);
  const { results: existing } = await ctx.db
    .prepare("SELECT credential_id, transports FROM passkeys WHERE user_id = ?")
    .bind(user.id)
    .all<{ credential_id: string; transports: string }>();
  const rp = relyingPartyOf(ctx);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.name,
    userID: await userHandleBytes(ctx.config.APP_SECRET, user.id),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({
      id: key.credential_id,
      transports: JSON.parse(key.transports) as string[],
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  await saveChallengeStatement(ctx.db, options.challenge, "registration", user.id).run();
  return options as RegistrationOptions;
}
