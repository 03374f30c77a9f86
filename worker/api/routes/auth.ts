import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { AuthResultSchema, MeSchema } from "@shared/contracts/session";
import {
  ChangePasswordBodySchema,
  EmailBodySchema,
  EmailChangeBodySchema,
  EmailChangeLinkSchema,
  EmailVerificationLinkSchema,
  MagicLinkTokenBodySchema,
  ResetPasswordBodySchema,
  SignInBodySchema,
  SignUpBodySchema,
} from "@shared/contracts/accounts";
import { signUp } from "../../domain/accounts/sign-up";
import { signIn, signOut } from "../../domain/accounts/sign-in";
import { presentMe } from "../../domain/accounts/users";
import { resendVerificationEmail, verifyEmail } from "../../domain/accounts/email-verification";
import { requestEmailChange, confirmEmailChange } from "../../domain/accounts/change-email";
import { changePassword } from "../../domain/accounts/change-password";
import { requestMagicLink, signInWithMagicLink } from "../../domain/accounts/magic-link";
import { requestPasswordReset, resetPassword } from "../../domain/accounts/password-reset";
import { message } from "@shared/messages";
import { clearedSessionCookie, sessionCookie } from "../../http/cookies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { signUpHook, validationHook } from "../validation-hook";
import { SignInAnswerSchema } from "@shared/contracts/two-step";
import { readTrustedDevice } from "../../http/trusted-device-cookie";

const LINK_SENT = message("If an account exists for that address, we have sent it a link.");
const { 401: e401, 403: e403, 413: e413, 415: e415, 422: e422, 429: e429 } = errorResponses;
const inputErrors = { 413: e413, 415: e415, 422: e422 };

export const authRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/signup",
    tags: ["Accounts"],
    summary: "Create a member account and sign in",
    request: { body: jsonBody(SignUpBodySchema) },
    responses: { 201: json(AuthResultSchema, "Signed up and signed in"), ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const { user, token } = await signUp(c.get("domain"), c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(token));
    return c.json({ token, user: presentMe(user) }, 201);
  },
  // The hook answers with the API's error shape, which the route's typed responses list as 422.
  signUpHook as never,
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login",
    tags: ["Accounts"],
    summary: "Sign in with email or username and password",
    request: { body: jsonBody(SignInBodySchema) },
    responses: {
      200: json(SignInAnswerSchema, "Signed in, or (two-step sign-in on) the challenge of the second step"),
      ...inputErrors,
      429: e429,
    },
  }),
  async (c) => {
    const result = await signIn(c.get("domain"), c.req.valid("json"), readTrustedDevice(c.req.raw));
    if ("twoStep" in result) return c.json({ twoStep: result.twoStep }, 200);
    c.header("Set-Cookie", sessionCookie(result.token));
    return c.json({ token: result.token, user: presentMe(result.user) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/logout",
    tags: ["Accounts"],
    summary: "End the current session on every device that uses it",
    middleware: [requireSession] as const,
    responses: { 200: json(MessageSchema, "Signed out"), 401: e401, 403: e403 },
  }),
  async (c) => {
    await signOut(c.get("domain"), c.get("session"));
    c.header("Set-Cookie", clearedSessionCookie());
    return c.json({ message: c.get("domain").t("You have been signed out.") }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me",
    tags: ["Accounts"],
    summary: "The signed-in user (spec §7)",
    middleware: [requireSession] as const,
    responses: { 200: json(MeSchema, "The current user"), 401: e401 },
  }),
  (c) => c.json(presentMe(c.get("session").user), 200),
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/email/verification-notification",
    tags: ["Email"],
    summary: "Send the verification email again",
    middleware: [requireSession] as const,
    responses: { 200: json(MessageSchema, "Sent, or already verified"), 401: e401, 403: e403, 429: e429 },
  }),
  async (c) => {
    await resendVerificationEmail(c.get("domain"), c.get("session").user);
    return c.json({ message: c.get("domain").t("A new verification link has been sent to your email address.") }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/email/verify",
    tags: ["Email"],
    summary: "Confirm an address with the parts of a /email/verify/{id}/{hash} link",
    request: { body: jsonBody(EmailVerificationLinkSchema) },
    responses: { 200: json(MeSchema, "Verified"), 403: e403, ...inputErrors },
  }),
  async (c) => c.json(presentMe(await verifyEmail(c.get("domain"), c.req.valid("json"))), 200),
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/email/change",
    tags: ["Email"],
    summary: "Ask to change the account's email; a link goes to the new address",
    middleware: [requireSession] as const,
    request: { body: jsonBody(EmailChangeBodySchema) },
    responses: { 200: json(MessageSchema, "Link sent"), 401: e401, 403: e403, ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const { email, password } = c.req.valid("json");
    await requestEmailChange(c.get("domain"), c.get("session").user, email, password ?? "");
    return c.json({ message: c.get("domain").t("We have sent a confirmation link to your new address.") }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/password",
    tags: ["Accounts"],
    summary: "Change the password (current one required); every other session of the account ends",
    middleware: [requireSession] as const,
    request: { body: jsonBody(ChangePasswordBodySchema) },
    responses: { 200: json(MessageSchema, "Changed"), 401: e401, ...inputErrors },
  }),
  async (c) => {
    await changePassword(c.get("domain"), c.get("session"), c.req.valid("json"));
    return c.json(
      { message: c.get("domain").t("Your password was changed. Other devices have been signed out.") },
      200,
    );
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/email/change/confirm",
    tags: ["Email"],
    summary: "Apply an email change with the parts of a /email/verify-change-email link",
    request: { body: jsonBody(EmailChangeLinkSchema) },
    responses: { 200: json(MeSchema, "Changed"), 403: e403, ...inputErrors },
  }),
  async (c) => c.json(presentMe(await confirmEmailChange(c.get("domain"), c.req.valid("json"))), 200),
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/magic-link",
    tags: ["Accounts"],
    summary: "Email a one-time sign-in link",
    request: { body: jsonBody(EmailBodySchema) },
    responses: { 200: json(MessageSchema, "Sent if the account exists"), ...inputErrors, 429: e429 },
  }),
  async (c) => {
    await requestMagicLink(c.get("domain"), c.req.valid("json").email);
    return c.json({ message: c.get("domain").t(LINK_SENT) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/token",
    tags: ["Accounts"],
    summary: "Sign in with the token of a magic link (single use)",
    request: { body: jsonBody(MagicLinkTokenBodySchema) },
    responses: {
      200: json(SignInAnswerSchema, "Signed in, or (two-step sign-in on) the challenge of the second step"),
      403: e403,
      ...inputErrors,
    },
  }),
  async (c) => {
    const domain = c.get("domain");
    const result = await signInWithMagicLink(domain, c.req.valid("json").token, readTrustedDevice(c.req.raw));
    if ("twoStep" in result) return c.json({ twoStep: result.twoStep }, 200);
    c.header("Set-Cookie", sessionCookie(result.token));
    return c.json({ token: result.token, user: presentMe(result.user) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/password/forgot",
    tags: ["Accounts"],
    summary: "Email a password reset link",
    request: { body: jsonBody(EmailBodySchema) },
    responses: { 200: json(MessageSchema, "Sent if the account exists"), ...inputErrors, 429: e429 },
  }),
  async (c) => {
    await requestPasswordReset(c.get("domain"), c.req.valid("json").email);
    return c.json({ message: c.get("domain").t(LINK_SENT) }, 200);
  },
);

authRoutes.openapi(
  createRoute({
    method: "post",
    path: "/password/reset",
    tags: ["Accounts"],
    summary: "Set a new password with a reset token; ends every session",
    request: { body: jsonBody(ResetPasswordBodySchema) },
    responses: { 200: json(MessageSchema, "Password changed"), 403: e403, ...inputErrors },
  }),
  async (c) => {
    const { token, password } = c.req.valid("json");
    await resetPassword(c.get("domain"), token, password);
    return c.json({ message: c.get("domain").t("Your password has been changed. Please sign in.") }, 200);
  },
);
