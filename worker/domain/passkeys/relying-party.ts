import type { DomainContext } from "../context";
import { fromBase64url, hmac } from "../shared/crypto";

/** The name authenticators show beside a passkey. */
const RP_NAME = "Fanclub";

/**
 * Who the passkeys belong to: the site's origin (APP_URL when set, else the origin the request came to, as for
 * emailed links) and its host name as the RP ID, so a key made here signs only for this site.
 */
export function relyingPartyOf(ctx: Pick<DomainContext, "origin">) {
  return { name: RP_NAME, id: new URL(ctx.origin).hostname, origin: ctx.origin };
}

/**
 * The WebAuthn user handle of an account: an HMAC of its id under APP_SECRET, the same for every passkey of the
 * account (an authenticator keeps one key per account and site) and saying nothing about the account to anyone
 * without the secret. A sign-in's response names it, and must name the owner of the credential it used.
 */
export const userHandleOf = (secret: string, userId: number) => hmac(secret, `passkey-user:${userId}`);

export async function userHandleBytes(secret: string, userId: number): Promise<Uint8Array<ArrayBuffer>> {
  return fromBase64url(await userHandleOf(secret, userId))!;
}

/** The public-key algorithms offered: EdDSA, ES256 and RS256, which every authenticator in use has one of. */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];
