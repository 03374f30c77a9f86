import { verifyAuthenticationResponse } from "@simplewebauthn/server";
import type { PasskeySignInInput } from "@shared/contracts/passkeys";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import { createSession } from "../auth/sessions";
import type { DomainContext } from "../context";
import { assertNotSuspended } from "../moderation/suspend-user";
import { fromBase64url } from "../shared/crypto";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { takeChallenge } from "./challenges";
import type { PasskeyRow } from "./list-passkeys";
import { relyingPartyOf, userHandleOf } from "./relying-party";

const NOT_SIGNED_IN = message("This passkey could not sign you in. Try another way to sign in.");

/**
 * Signs in with a passkey: the browser's answer must name a credential registered here, by the account its user
 * handle names, sign a live sign-in challenge (single use: taking it deletes it) for this site with the user
 * verified, and carry a signature counter that moved on (a cloned key's would not). The key is something the
 * person has and the verification something they know or are, so it opens a session at once: it stands for both
 * steps of two-step sign-in. Failures count against the address like failed password sign-ins.
 */
export async function signInWithPasskey(
  ctx: DomainContext,
  input: PasskeySignInInput,
): Promise<{ user: UserRow; token: string }> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const failures = `passkey-failures:ip:${ctx.ip}`;
  await limiter.check(failures, LIMITS.passkeyFailuresPerIp);
  const refuse = async () => {
    await limiter.hit(failures, LIMITS.passkeyFailuresPerIp);
    return new AppError("validation", NOT_SIGNED_IN);
  };

  const key = await ctx.db
    .prepare("SELECT * FROM passkeys WHERE credential_id = ?")
    .bind(input.response.id)
    .first<PasskeyRow>();
  const { userHandle } = input.response.response;
  if (!key || userHandle !== (await userHandleOf(ctx.config.APP_SECRET, key.user_id))) throw await refuse();

  const rp = relyingPartyOf(ctx);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: (challenge) => takeChallenge(ctx.db, challenge, "authentication", null),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credential_id,
        publicKey: fromBase64url(key.public_key)!,
        counter: key.counter,
      },
      requireUserVerification: true,
    });
  } catch {
    throw await refuse();
  }
  if (!verification.verified) throw await refuse();

  const { newCounter, credentialDeviceType, credentialBackedUp } = verification.authenticationInfo;
  const [, found] = await ctx.db.batch([
    ctx.db
      .prepare("UPDATE passkeys SET counter = ?, device_type = ?, backed_up = ?, last_used_at = ? WHERE id = ?")
      .bind(newCounter, credentialDeviceType, credentialBackedUp ? 1 : 0, isoNow(), key.id),
    ctx.db.prepare("SELECT * FROM users WHERE id = ?").bind(key.user_id),
  ]);
  const user = found?.results[0] as UserRow | undefined;
  if (!user) throw await refuse();
  assertNotSuspended(user);
  return { user, token: await createSession(ctx, user.id) };
}
