import { generateAuthenticationOptions } from "@simplewebauthn/server";
import type { AuthenticationOptions } from "@shared/contracts/passkeys";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { CEREMONY_TIMEOUT_MS, saveChallengeStatement } from "./challenges";
import { relyingPartyOf } from "./relying-party";

/**
 * The first step of signing in with a passkey: a challenge for any of this site's discoverable keys (no account
 * is named, so none is revealed). Each counts against the address as a password sign-in does, which also bounds
 * the challenges a stranger can make the database keep.
 */
export async function startPasskeySignIn(
  ctx: Pick<DomainContext, "db" | "config" | "origin" | "ip">,
): Promise<AuthenticationOptions> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`signin:ip:${ctx.ip}`, LIMITS.signInPerIp);
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(ctx).id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: "required",
  });
  await saveChallengeStatement(ctx.db, options.challenge, "authentication", null).run();
  return options as AuthenticationOptions;
}
