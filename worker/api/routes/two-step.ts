import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { AuthResultSchema } from "@shared/contracts/session";
import {
  RecoveryCodesSchema,
  TwoStepChallengeBodySchema,
  TwoStepCodeBodySchema,
  TwoStepConfirmBodySchema,
  TwoStepOffBodySchema,
  TwoStepSetupSchema,
  TwoStepStatusSchema,
} from "@shared/contracts/two-step";
import { presentMe } from "../../domain/accounts/users";
import { beginTwoStep } from "../../domain/auth/begin-two-step";
import { completeTwoStep } from "../../domain/auth/complete-two-step";
import { emailSignInCode } from "../../domain/auth/email-sign-in-code";
import { readTwoStepStatus } from "../../domain/auth/read-two-step-status";
import { renewRecoveryCodes } from "../../domain/auth/renew-recovery-codes";
import { turnOffTwoStep } from "../../domain/auth/turn-off-two-step";
import { turnOnTwoStep } from "../../domain/auth/turn-on-two-step";
import { sessionCookie } from "../../http/cookies";
import { requireSession } from "../../http/middleware";
import { trustedDeviceCookie } from "../../http/trusted-device-cookie";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 413: e413, 415: e415, 422: e422, 429: e429 } = errorResponses;
const inputErrors = { 413: e413, 415: e415, 422: e422 };
const tags = ["Two-step sign-in"];

export const twoStepRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/two-step",
    tags,
    summary: "The second step of a sign-in: an authenticator, recovery or emailed code for the challenge",
    request: { body: jsonBody(TwoStepCodeBodySchema) },
    responses: { 200: json(AuthResultSchema, "Signed in"), 403: e403, ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const { user, token, trustedDevice } = await completeTwoStep(c.get("domain"), c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(token));
    if (trustedDevice) c.header("Set-Cookie", trustedDeviceCookie(trustedDevice), { append: true });
    return c.json({ token, user: presentMe(user) }, 200);
  },
);

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/two-step/email",
    tags,
    summary: "Email a six-digit code for the challenge, valid 10 minutes",
    request: { body: jsonBody(TwoStepChallengeBodySchema) },
    responses: { 200: json(MessageSchema, "Sent"), 403: e403, ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const domain = c.get("domain");
    await emailSignInCode(domain, c.req.valid("json").challenge);
    return c.json({ message: domain.t("We have emailed you a code.") }, 200);
  },
);

twoStepRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/two-step",
    tags,
    summary: "Whether two-step sign-in is on, and the recovery codes left",
    middleware: [requireSession] as const,
    responses: { 200: json(TwoStepStatusSchema, "The state"), 401: e401 },
  }),
  async (c) => c.json(await readTwoStepStatus(c.get("domain").db, c.get("session").user.id), 200),
);

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/two-step/setup",
    tags,
    summary: "A new authenticator secret (QR code and text); not on until a code from it is confirmed",
    middleware: [requireSession] as const,
    responses: { 200: json(TwoStepSetupSchema, "The secret"), 401: e401, 403: e403, 409: e409 },
  }),
  async (c) => c.json(await beginTwoStep(c.get("domain"), c.get("session").user), 200),
);

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/two-step/confirm",
    tags,
    summary: "Turn two-step sign-in on with a code from the new secret; answers the ten recovery codes, once",
    middleware: [requireSession] as const,
    request: { body: jsonBody(TwoStepConfirmBodySchema) },
    responses: {
      200: json(RecoveryCodesSchema, "On"),
      401: e401,
      403: e403,
      409: e409,
      ...inputErrors,
      429: e429,
    },
  }),
  async (c) => {
    const recoveryCodes = await turnOnTwoStep(c.get("domain"), c.get("session").user, c.req.valid("json").code);
    return c.json({ recoveryCodes }, 200);
  },
);

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/two-step/off",
    tags,
    summary: "Turn two-step sign-in off (password and a code)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(TwoStepOffBodySchema) },
    responses: { 200: json(MessageSchema, "Off"), 401: e401, 403: e403, ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const domain = c.get("domain");
    await turnOffTwoStep(domain, c.get("session").user, c.req.valid("json"));
    return c.json({ message: domain.t("Two-step sign-in is off.") }, 200);
  },
);

twoStepRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/two-step/recovery-codes",
    tags,
    summary: "Ten new recovery codes in place of the old ones (needs a code); answered once",
    middleware: [requireSession] as const,
    request: { body: jsonBody(TwoStepConfirmBodySchema) },
    responses: {
      200: json(RecoveryCodesSchema, "New codes"),
      401: e401,
      403: e403,
      409: e409,
      ...inputErrors,
      429: e429,
    },
  }),
  async (c) => {
    const recoveryCodes = await renewRecoveryCodes(c.get("domain"), c.get("session").user, c.req.valid("json").code);
    return c.json({ recoveryCodes }, 200);
  },
);
