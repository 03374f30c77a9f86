import type { EmailChangeLink, EmailVerificationLink } from "@shared/contracts/accounts";
import { hmac, sha256Hex, verifyHmac } from "../shared/crypto";
import { DAY } from "../shared/time";
import type { DomainContext } from "../context";
import type { UserRow } from "./users";

/**
 * Email links that need no stored state: they carry an expiry and an HMAC over everything they claim, and are
 * bound to the account's current email, so a link dies as soon as the address changes. An email change's link is
 * also signed over the password's hash (not carried in the link): a password change or reset ends a change asked
 * for before it, by whoever had the session then.
 */
const SIGNED_LINK_LIFETIME_MS = DAY;

const emailHash = async (email: string) => (await sha256Hex(email.toLowerCase())).slice(0, 40);

export async function emailVerificationUrl(ctx: DomainContext, user: Pick<UserRow, "id" | "email">): Promise<string> {
  const hash = await emailHash(user.email);
  const expires = Date.now() + SIGNED_LINK_LIFETIME_MS;
  const signature = await hmac(ctx.config.APP_SECRET, `verify-email:${user.id}:${hash}:${expires}`);
  return `${ctx.origin}/email/verify/${user.id}/${hash}?expires=${expires}&signature=${signature}`;
}

/** True when the link was issued by us, is unexpired and names the user's current address. */
export async function isValidVerificationLink(
  ctx: DomainContext,
  user: Pick<UserRow, "id" | "email">,
  link: EmailVerificationLink,
) {
  if (link.expires < Date.now() || link.id !== user.id) return false;
  if (link.hash !== (await emailHash(user.email))) return false;
  return verifyHmac(ctx.config.APP_SECRET, `verify-email:${link.id}:${link.hash}:${link.expires}`, link.signature);
}

type EmailChangeAccount = Pick<UserRow, "id" | "email" | "password_hash">;

const passwordStamp = async (user: EmailChangeAccount) => (await sha256Hex(user.password_hash)).slice(0, 40);

const emailChangeClaim = async (user: EmailChangeAccount, from: string, newEmail: string, expires: number) =>
  `change-email:${user.id}:${from}:${newEmail}:${expires}:${await passwordStamp(user)}`;

export async function emailChangeUrl(ctx: DomainContext, user: EmailChangeAccount, newEmail: string): Promise<string> {
  const from = await emailHash(user.email);
  const expires = Date.now() + SIGNED_LINK_LIFETIME_MS;
  const signature = await hmac(ctx.config.APP_SECRET, await emailChangeClaim(user, from, newEmail, expires));
  const query = new URLSearchParams({
    id: String(user.id),
    email: newEmail,
    from,
    expires: String(expires),
    signature,
  });
  return `${ctx.origin}/email/verify-change-email?${query}`;
}

export async function isValidEmailChangeLink(ctx: DomainContext, user: EmailChangeAccount, link: EmailChangeLink) {
  if (link.expires < Date.now() || link.id !== user.id) return false;
  if (link.from !== (await emailHash(user.email))) return false;
  return verifyHmac(
    ctx.config.APP_SECRET,
    await emailChangeClaim(user, link.from, link.email, link.expires),
    link.signature,
  );
}
