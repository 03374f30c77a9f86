import { verifyRegistrationResponse } from "@simplewebauthn/server";
import type { Passkey, RegisterPasskeyInput } from "@shared/contracts/passkeys";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { base64url } from "../shared/crypto";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { takeChallenge } from "./challenges";
import { presentPasskey, type PasskeyRow } from "./list-passkeys";
import { relyingPartyOf } from "./relying-party";

const NOT_REGISTERED = message("The passkey could not be added. Please try again.");
const ALREADY_REGISTERED = message("This passkey is already registered.");

/**
 * The second step of adding a passkey: the browser's answer must answer a live challenge issued to this account
 * (which its password unlocked), for this site, with the user verified; then the credential is kept under the
 * name the person gave it.
 */
export async function registerPasskey(
  ctx: Pick<DomainContext, "db" | "origin">,
  user: Pick<UserRow, "id">,
  input: RegisterPasskeyInput,
): Promise<Passkey> {
  const rp = relyingPartyOf(ctx);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => takeChallenge(ctx.db, challenge, "registration", user.id),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("validation", NOT_REGISTERED);
  }
  if (!verification.verified) throw new AppError("validation", NOT_REGISTERED);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const row = await ctx.db
    .prepare(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, device_type, backed_up, transports, name, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING *`,
    )
    .bind(
      user.id,
      credential.id,
      base64url(credential.publicKey),
      credential.counter,
      credentialDeviceType,
      credentialBackedUp ? 1 : 0,
      JSON.stringify(input.response.response.transports ?? []),
      input.name,
      isoNow(),
    )
    .first<PasskeyRow>();
  if (!row) throw new AppError("conflict", ALREADY_REGISTERED);
  return presentPasskey(row);
}
