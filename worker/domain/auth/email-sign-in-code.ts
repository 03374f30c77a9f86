import type { Translate } from "../i18n";
import type { MailMessage } from "../mail/mailer";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { isoIn, MINUTE } from "../shared/time";
import { findUserById } from "../accounts/users";
import { LIMITS, RateLimiter } from "./rate-limit";
import { CHALLENGE_EXPIRED, emailCodeHash, findChallenge } from "./complete-two-step";

const EMAIL_CODE_LIFETIME_MS = 10 * MINUTE;

/** Six random digits, each drawn without bias (bytes of 250 and above are drawn again). */
function sixDigits(): string {
  let code = "";
  while (code.length < 6) {
    for (const byte of crypto.getRandomValues(new Uint8Array(8))) if (byte < 250 && code.length < 6) code += byte % 10;
  }
  return code;
}

const signInCodeMail = (t: Translate, to: string, name: string, code: string): MailMessage => {
  const greeting = t("Hi {{name}},", { name });
  const body = t("Your sign-in code is {{code}}. It works once and expires in 10 minutes.", { code });
  const footer = t("If you did not try to sign in, change your password: someone else knows it.");
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  return {
    to,
    subject: t("Your sign-in code"),
    text: `${greeting}\n\n${body}\n\n${footer}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>${escape(greeting)}</p><p>${escape(body)}</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:600">${code}</p>
<p style="color:#666;font-size:13px">${escape(footer)}</p></body></html>`,
  };
};

/**
 * Mails a six-digit code for a sign-in's second step, valid 10 minutes; a new one replaces the one before. Counted
 * as emailed links are, per IP and per account, so that nobody can flood the owner's inbox with a stolen password.
 */
export async function emailSignInCode(ctx: DomainContext, challenge: string): Promise<void> {
  const row = await findChallenge(ctx.db, challenge);
  const user = row ? await findUserById(ctx.db, row.user_id) : null;
  if (!row || !user) throw new AppError("forbidden", CHALLENGE_EXPIRED);
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`email-links:ip:${ctx.ip}`, LIMITS.emailLinksPerIp);
  await limiter.hit(`email-links:account:${user.id}`, LIMITS.emailLinksPerAccount);
  const code = sixDigits();
  await ctx.db
    .prepare("UPDATE two_step_challenges SET email_code_hash = ?, email_code_expires_at = ? WHERE id = ?")
    .bind(await emailCodeHash(row.id, code), isoIn(EMAIL_CODE_LIFETIME_MS), row.id)
    .run();
  await ctx.mailer.send(signInCodeMail(ctx.t, user.email, user.name, code));
}
