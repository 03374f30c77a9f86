import { AppError, type FieldErrors } from "../shared/errors";
import { isoNow } from "../shared/time";
import { message } from "../shared/messages";
import { hashPassword, passwordHashParams } from "../auth/password";
import { createSession } from "../auth/sessions";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { emailSchema, signUpSchema, usernameSchema, type SignUpInput } from "./rules";
import { toFieldErrors } from "../shared/validation";
import { findUserById, type UserRow } from "./users";
import { sendVerificationEmail } from "./email-verification";

export const USERNAME_TAKEN = message("The username has already been taken");
export const EMAIL_TAKEN = message("The email has already been taken");

async function takenFields(db: D1Database, username: string | null, email: string | null): Promise<FieldErrors> {
  const { results } = await db
    .prepare("SELECT username = ?1 COLLATE NOCASE AS same_username, email = ?2 COLLATE NOCASE AS same_email FROM users WHERE username = ?1 OR email = ?2")
    .bind(username, email)
    .all<{ same_username: number; same_email: number }>();
  const errors: FieldErrors = {};
  if (results.some((r) => r.same_username)) errors.username = [USERNAME_TAKEN];
  if (results.some((r) => r.same_email)) errors.email = [EMAIL_TAKEN];
  return errors;
}

const FIELD_ORDER = ["username", "name", "email", "password", "dateOfBirth", "accountType"];

function signUpError(errors: FieldErrors): AppError {
  const first = [...FIELD_ORDER, ...Object.keys(errors)].find((field) => errors[field]?.length);
  return new AppError("validation", errors[first!]![0]!, errors);
}

/**
 * Checks a sign-up as a whole and reports every problem at once: the form's rules, and whether a well-formed
 * username or email is already taken, so that a person fixes everything in one pass.
 */
export async function validateSignUp(db: D1Database, raw: unknown): Promise<SignUpInput> {
  const parsed = signUpSchema.safeParse(raw);
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const username = usernameSchema.safeParse(fields.username);
  const email = emailSchema.safeParse(fields.email);
  const taken = await takenFields(db, username.success ? username.data : null, email.success ? email.data : null);
  if (parsed.success && Object.keys(taken).length === 0) return parsed.data;
  throw signUpError({ ...(parsed.success ? {} : toFieldErrors(parsed.error)), ...taken });
}

/**
 * Creates a member account, signs it in and sends the verification email. The limit counts the accounts an address
 * creates, not the form's mistakes: a refused form (a birth date under 18, a name taken) costs nothing, as the
 * API's sign-up already refused its schema's failures before any count (worker/api/validation-hook.ts).
 */
export async function signUp(ctx: DomainContext, raw: unknown): Promise<{ user: UserRow; token: string }> {
  const input = await validateSignUp(ctx.db, raw);
  await new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE).hit(`signup:ip:${ctx.ip}`, LIMITS.signUpPerIp);

  const passwordHash = await hashPassword(input.password, passwordHashParams(ctx.config));
  const at = isoNow();
  let id: number;
  try {
    const row = await ctx.db
      .prepare(
        `INSERT INTO users (username, name, email, password_hash, date_of_birth, account_type, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .bind(input.username, input.name, input.email, passwordHash, input.dateOfBirth, input.accountType, at, at)
      .first<{ id: number }>();
    id = row!.id;
  } catch (error) {
    // Two sign-ups for the same name can pass the check above together; the UNIQUE index decides.
    if (String(error).includes("UNIQUE")) throw signUpError(await takenFields(ctx.db, input.username, input.email));
    throw error;
  }

  const user = (await findUserById(ctx.db, id))!;
  const token = await createSession(ctx.db, id, ctx.userAgent);
  await sendVerificationEmail(ctx, user);
  return { user, token };
}
