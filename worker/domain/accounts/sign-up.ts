import { AppError, type FieldErrors } from "../shared/errors";
import { isoNow } from "../shared/time";
import { message } from "@shared/messages";
import { hashPassword, passwordHashParams } from "../auth/password";
import { createSession } from "../auth/sessions";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { SignUpBodySchema, usernameSchema } from "@shared/contracts/accounts";
import { toFieldErrors } from "../shared/validation";
import { findUserById, type UserRow } from "./users";
import { sendVerificationEmail } from "./email-verification";

const USERNAME_TAKEN = message("The username has already been taken");
export const EMAIL_TAKEN = message("The email has already been taken");

const takenStatement = (db: D1Database, username: string | null, email: string | null) =>
  db
    .prepare(
      "SELECT username = ?1 COLLATE NOCASE AS same_username, email = ?2 COLLATE NOCASE AS same_email FROM users WHERE username = ?1 OR email = ?2",
    )
    .bind(username, email);

function takenFields(results: { same_username: number; same_email: number }[]): FieldErrors {
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
 * A sign-up the form's rules refuse: their errors, with whether a well-formed username is taken, so that a person
 * fixes both in one pass (usernames are public: every profile shows its own). Never whether the email has an
 * account: that is said only to a sign-up that is otherwise valid and within the limit (signUp,
 * docs/decisions/sign-up-says-email-taken.md).
 */
export async function invalidSignUpErrors(db: D1Database, raw: unknown, schemaErrors: FieldErrors): Promise<AppError> {
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const username = usernameSchema.safeParse(fields.username);
  const taken = username.success
    ? takenFields(
        (await takenStatement(db, username.data, null).all<{ same_username: number; same_email: number }>()).results,
      )
    : {};
  return signUpError({ ...schemaErrors, ...taken });
}

/**
 * Creates a member account, signs it in and sends the verification email. Two limits per client address: every
 * well-formed try counts before anyone looks the email up (an answer "taken" or not is one try), and the accounts
 * made count once more, so that neither a list of emails nor a stream of accounts can run unchecked. A form the
 * rules refuse (a birth date under 18) costs nothing: it says nothing about anyone.
 */
export async function signUp(ctx: DomainContext, raw: unknown): Promise<{ user: UserRow; token: string }> {
  const parsed = SignUpBodySchema.safeParse(raw);
  if (!parsed.success) throw await invalidSignUpErrors(ctx.db, raw, toFieldErrors(parsed.error));
  const input = parsed.data;
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const attempt = limiter.prepareHit(`signup-attempts:ip:${ctx.ip}`, LIMITS.signUpAttemptsPerIp);
  const [counted, taken] = await ctx.db.batch<{ same_username: number; same_email: number }>([
    attempt.statement,
    takenStatement(ctx.db, input.username, input.email),
  ]);
  attempt.enforce(counted!);
  const takenErrors = takenFields(taken!.results);
  if (Object.keys(takenErrors).length > 0) throw signUpError(takenErrors);
  await limiter.hit(`signup:ip:${ctx.ip}`, LIMITS.signUpPerIp);

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
    if (String(error).includes("UNIQUE"))
      throw signUpError(
        takenFields(
          (
            await takenStatement(ctx.db, input.username, input.email).all<{
              same_username: number;
              same_email: number;
            }>()
          ).results,
        ),
      );
    throw error;
  }

  const user = (await findUserById(ctx.db, id))!;
  const token = await createSession(ctx, id);
  await sendVerificationEmail(ctx, user);
  return { user, token };
}
