import { nowMs } from "@shared/clock";
import { message } from "@shared/messages";
import { sha256Hex } from "../shared/crypto";
import { isoNow } from "../shared/time";
import { matchTotp } from "./totp";
import { decryptSecret } from "./two-step-secret";

export const WRONG_CODE = message("That code is not right. Check it and try again.");

export interface TwoStepRow {
  secret: string;
  enabled_at: string | null;
  last_step: number;
}

export const findTwoStep = (db: D1Database, userId: number) =>
  db.prepare("SELECT secret, enabled_at, last_step FROM two_step WHERE user_id = ?").bind(userId).first<TwoStepRow>();

/** How a typed code is compared: spaces and dashes dropped, lowercase (recovery codes are shown as xxxxx-xxxxx). */
export const normaliseCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/**
 * Spends an authenticator code: the step it belongs to is written as the newest used, guarded so that of two
 * requests with the same code only one gets it.
 */
async function spendAuthenticatorCode(
  ctx: { db: D1Database; config: { APP_SECRET: string } },
  userId: number,
  row: TwoStepRow,
  code: string,
): Promise<boolean> {
  const secret = await decryptSecret(ctx.config.APP_SECRET, row.secret);
  if (!secret) return false;
  const step = await matchTotp(secret, code, nowMs(), row.last_step);
  if (step === null) return false;
  const spent = await ctx.db
    .prepare("UPDATE two_step SET last_step = ?1 WHERE user_id = ?2 AND last_step < ?1")
    .bind(step, userId)
    .run();
  return spent.meta.changes === 1;
}

const recoveryHash = (userId: number, code: string) => sha256Hex(`${userId}:${normaliseCode(code)}`);

/** Spends one unused recovery code, atomically. */
async function spendRecoveryCode(db: D1Database, userId: number, code: string): Promise<boolean> {
  const spent = await db
    .prepare("UPDATE two_step_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL")
    .bind(isoNow(), userId, await recoveryHash(userId, code))
    .run();
  return spent.meta.changes === 1;
}

/** A six-digit code is an authenticator's; anything else is tried as a recovery code. */
export async function spendAppOrRecoveryCode(
  ctx: { db: D1Database; config: { APP_SECRET: string } },
  userId: number,
  row: TwoStepRow,
  code: string,
): Promise<boolean> {
  const typed = normaliseCode(code);
  return /^\d{6}$/.test(typed)
    ? spendAuthenticatorCode(ctx, userId, row, typed)
    : spendRecoveryCode(ctx.db, userId, typed);
}

const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without the look-alikes i, l, o and u: 5 bits a character, 50 bits a code. */
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function newRecoveryCode(): string {
  const text = Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => RECOVERY_ALPHABET[byte & 31]).join("");
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * Ten new recovery codes, to show once, and the statements that put them in place of the account's old ones (for
 * the caller's batch).
 */
export async function replaceRecoveryCodes(
  db: D1Database,
  userId: number,
): Promise<{ codes: string[]; statements: D1PreparedStatement[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const insert = db.prepare("INSERT INTO two_step_recovery_codes (user_id, code_hash) VALUES (?, ?)");
  const statements = [
    db.prepare("DELETE FROM two_step_recovery_codes WHERE user_id = ?").bind(userId),
    ...(await Promise.all(codes.map(async (code) => insert.bind(userId, await recoveryHash(userId, code))))),
  ];
  return { codes, statements };
}
