/**
 * The accounts API's request bodies (sign-up, sign-in, passwords, email links) and the rules of their fields, read
 * by the JSON routes (worker/api) and the form actions (app/routes) alike. Rules that need the database (a
 * username being taken) are the Worker's (worker/domain/accounts). The answers are in session.ts.
 */
import { z } from "zod";
import { message } from "../messages";
import { ACCOUNT_TYPES } from "./account-constants";
import { isCommonPassword } from "./common-passwords";
import { idNumberOrText, singleLineText, visibleNameText } from "./text";

/**
 * Names a profile URL /{username} may not take: every top-level route, and files served from the site root.
 * Compared lowercase.
 */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  "about",
  "account",
  "admin",
  "administrator",
  "api",
  "app",
  "assets",
  "becomecreator",
  "bookmarks",
  "build",
  "dashboard",
  "dev",
  "email",
  "explore",
  "favicon.ico",
  "favicon.svg",
  "feed",
  "forgot-password",
  "help",
  "home",
  "icons",
  "lists",
  "live",
  "login",
  "logout",
  "manifest.webmanifest",
  "me",
  "media",
  "messages",
  "notifications",
  "offline",
  "offline.html",
  "payments",
  "post",
  "posts",
  "preview",
  "privacy",
  "processing",
  "profile",
  "reset-password",
  "robots.txt",
  "root",
  "scheduled",
  "search",
  "settings",
  "signup",
  "static",
  "stories",
  "subscriptions",
  "support",
  "sw.js",
  "system",
  "terms",
  "user",
  "users",
  "vault",
  "wallet",
  "ws",
  "www",
]);

const MIN_AGE_YEARS = 18;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

const USERNAME_RULE = message("Usernames have 3 to 30 characters: letters a-z, digits, dots and underscores.");
const USERNAME_RESERVED = message("This username is not available.");
const PASSWORD_SHORT = message("The password must be at least 8 characters.");
const PASSWORD_LONG = message("The password may not be longer than 128 characters.");
const PASSWORD_COMMON = message("This password is too common. Please choose another one.");
const UNDERAGE = message("Your age must be over 18+");
const REQUIRED = message("This field is required.");

export const usernameSchema = singleLineText()
  .trim()
  .max(64, { message: USERNAME_RULE })
  .transform((name) => name.toLowerCase())
  .pipe(
    z
      .string()
      .regex(/^[a-z0-9_](?:[a-z0-9_]|\.(?!\.))*[a-z0-9_]$/, { message: USERNAME_RULE })
      .min(3, { message: USERNAME_RULE })
      .max(30, { message: USERNAME_RULE })
      .refine((name) => !RESERVED_USERNAMES.has(name), { message: USERNAME_RESERVED }),
  );

const EMAIL_REQUIRED = message("Enter your email address.");
const EMAIL_FORMAT = message("Enter a valid email address, such as name@example.com.");
const EMAIL_TOO_LONG = message("An email address has at most {{max}} characters.", { max: 254 });

export const emailSchema = singleLineText({ message: EMAIL_REQUIRED })
  .trim()
  .min(1, { message: EMAIL_REQUIRED })
  .max(254, { message: EMAIL_TOO_LONG })
  .transform((email) => email.toLowerCase())
  .pipe(z.email({ message: EMAIL_FORMAT }));

/**
 * A password as typed, to check against the stored one: no control characters (a NUL would break the hasher),
 * and a bound far above PASSWORD_MAX so that hashing stays cheap.
 */
export const passwordText = singleLineText().max(PASSWORD_MAX * 4);

export const newPasswordSchema = singleLineText({ message: REQUIRED })
  .min(PASSWORD_MIN, { message: PASSWORD_SHORT })
  .max(PASSWORD_MAX, { message: PASSWORD_LONG })
  .refine((password) => !isCommonPassword(password), { message: PASSWORD_COMMON });

/** Age in whole years on `today`, both dates read as calendar dates in UTC. */
export function ageOn(birth: Date, today: Date): number {
  let age = today.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    today.getUTCMonth() < birth.getUTCMonth() ||
    (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}

function parseCalendarDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return valid && year >= 1900 ? date : null;
}

const BIRTH_DATE_FORMAT = message("Enter your date of birth as a real date from 1900 to today, such as 1990-05-17.");

export const dateOfBirthSchema = singleLineText({ message: BIRTH_DATE_FORMAT }).superRefine((text, ctx) => {
  const date = parseCalendarDate(text);
  const today = new Date();
  if (date === null || date > today) ctx.addIssue({ code: "custom", message: BIRTH_DATE_FORMAT });
  else if (ageOn(date, today) < MIN_AGE_YEARS) ctx.addIssue({ code: "custom", message: UNDERAGE });
});

const NAME_RULE = message("The name has 1 to 60 characters.");

/** The name shown beside the username (sign-up, Settings → Profile). */
export const displayNameSchema = visibleNameText().trim().min(1, { message: REQUIRED }).max(60, { message: NAME_RULE });

export const SignUpBodySchema = z.object({
  username: usernameSchema,
  name: displayNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  dateOfBirth: dateOfBirthSchema,
  accountType: z.enum(ACCOUNT_TYPES),
});

const LOGIN_TOO_LONG = message("An email or username has at most {{max}} characters.", { max: 254 });

export const SignInBodySchema = z.object({
  login: singleLineText({ message: REQUIRED })
    .trim()
    .min(1, { message: REQUIRED })
    .max(254, { message: LOGIN_TOO_LONG }),
  password: passwordText.min(1, { message: REQUIRED }),
});
export type SignInInput = z.output<typeof SignInBodySchema>;

const PASSWORDS_DIFFER = message("The passwords do not match.");
const newPasswordFields = { password: newPasswordSchema, passwordConfirmation: passwordText };
const passwordsMatch = (input: { password: string; passwordConfirmation: string }) =>
  input.password === input.passwordConfirmation;
const passwordsDiffer = { message: PASSWORDS_DIFFER, path: ["passwordConfirmation"] };

/** The reset page's form: the token comes from its URL. */
export const NewPasswordFormSchema = z.object(newPasswordFields).refine(passwordsMatch, passwordsDiffer);
/** POST /api/password/reset. */
export const ResetPasswordBodySchema = z
  .object({ token: singleLineText().min(1).max(64), ...newPasswordFields })
  .refine(passwordsMatch, passwordsDiffer);

/** The current password is `password`, the field every sensitive action asks for (spec §5). */
export const ChangePasswordBodySchema = z
  .object({ password: passwordText.optional(), newPassword: newPasswordSchema, newPasswordConfirmation: passwordText })
  .refine((input) => input.newPassword === input.newPasswordConfirmation, {
    message: PASSWORDS_DIFFER,
    path: ["newPasswordConfirmation"],
  });
export type ChangePasswordInput = z.output<typeof ChangePasswordBodySchema>;

/** A new address for the account; `password` is the current one. */
export const EmailChangeBodySchema = z.object({ email: emailSchema, password: passwordText.optional() });

/** Where to send a magic link or a password reset link. */
export const EmailBodySchema = z.object({ email: emailSchema });

/** The token of a magic link. */
export const MagicLinkTokenBodySchema = z.object({ token: singleLineText().min(1).max(64) });

/** The parts of a /email/verify/{id}/{hash} link (worker/domain/accounts/signed-links.ts writes and checks them). */
export const EmailVerificationLinkSchema = z.object({
  id: idNumberOrText,
  hash: z.string().regex(/^[0-9a-f]{40}$/),
  expires: idNumberOrText,
  signature: singleLineText().max(64),
});
export type EmailVerificationLink = z.output<typeof EmailVerificationLinkSchema>;

/** The parts of a /email/verify-change-email link. */
export const EmailChangeLinkSchema = z.object({
  id: idNumberOrText,
  email: singleLineText().max(254),
  from: z.string().regex(/^[0-9a-f]{40}$/),
  expires: idNumberOrText,
  signature: singleLineText().max(64),
});
export type EmailChangeLink = z.output<typeof EmailChangeLinkSchema>;
