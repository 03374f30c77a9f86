import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { AuthResultSchema } from "@shared/contracts/session";
import {
  AuthenticationOptionsSchema,
  PasskeyListSchema,
  PasskeySchema,
  PasskeySignInBodySchema,
  RegisterPasskeyBodySchema,
  RegistrationOptionsBodySchema,
  RegistrationOptionsSchema,
  RenamePasskeyBodySchema,
} from "@shared/contracts/passkeys";
import { presentMe } from "../../domain/accounts/users";
import { listPasskeys } from "../../domain/passkeys/list-passkeys";
import { registerPasskey } from "../../domain/passkeys/register-passkey";
import { removePasskey } from "../../domain/passkeys/remove-passkey";
import { renamePasskey } from "../../domain/passkeys/rename-passkey";
import { signInWithPasskey } from "../../domain/passkeys/sign-in-with-passkey";
import { startPasskeyRegistration } from "../../domain/passkeys/start-registration";
import { startPasskeySignIn } from "../../domain/passkeys/start-sign-in";
import { sessionCookie } from "../../http/cookies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 413: e413, 415: e415, 422: e422, 429: e429 } = errorResponses;
const inputErrors = { 413: e413, 415: e415, 422: e422 };

export const passkeyRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

passkeyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/passkeys",
    tags: ["Passkeys"],
    summary: "Your passkeys, oldest first",
    middleware: [requireSession] as const,
    responses: { 200: json(PasskeyListSchema, "The passkeys"), 401: e401 },
  }),
  async (c) => c.json({ passkeys: await listPasskeys(c.get("domain").db, c.get("session").user.id) }, 200),
);

passkeyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/passkeys/registration/options",
    tags: ["Passkeys"],
    summary: "Start adding a passkey (your password required): the options for navigator.credentials.create",
    middleware: [requireSession] as const,
    request: { body: jsonBody(RegistrationOptionsBodySchema) },
    responses: {
      200: json(RegistrationOptionsSchema, "The ceremony's options; its challenge lasts 5 minutes, once"),
      401: e401,
      403: e403,
      ...inputErrors,
      429: e429,
    },
  }),
  async (c) => {
    const options = await startPasskeyRegistration(
      c.get("domain"),
      c.get("session").user,
      c.req.valid("json").password,
    );
    return c.json(options, 200);
  },
);

passkeyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/passkeys",
    tags: ["Passkeys"],
    summary: "Finish adding a passkey: the browser's answer to the registration options, and its name",
    middleware: [requireSession] as const,
    request: { body: jsonBody(RegisterPasskeyBodySchema) },
    responses: { 201: json(PasskeySchema, "Added"), 401: e401, 403: e403, 409: e409, ...inputErrors },
  }),
  async (c) => c.json(await registerPasskey(c.get("domain"), c.get("session").user, c.req.valid("json")), 201),
);

passkeyRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/passkeys/{id}",
    tags: ["Passkeys"],
    summary: "Rename one of your passkeys",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(RenamePasskeyBodySchema) },
    responses: { 200: json(PasskeySchema, "Renamed"), 401: e401, 403: e403, 404: e404, ...inputErrors },
  }),
  async (c) => {
    const passkey = await renamePasskey(
      c.get("domain").db,
      c.get("session").user.id,
      c.req.valid("param").id,
      c.req.valid("json").name,
    );
    return c.json(passkey, 200);
  },
);

passkeyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/passkeys/{id}",
    tags: ["Passkeys"],
    summary: "Remove one of your passkeys: it no longer signs in",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Removed" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    await removePasskey(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

passkeyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/passkey/options",
    tags: ["Passkeys"],
    summary: "Start signing in with a passkey (no account named): the options for navigator.credentials.get",
    responses: {
      200: json(AuthenticationOptionsSchema, "The ceremony's options; its challenge lasts 5 minutes, once"),
      429: e429,
    },
  }),
  async (c) => c.json(await startPasskeySignIn(c.get("domain")), 200),
);

passkeyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/login/passkey",
    tags: ["Passkeys"],
    summary: "Sign in with the browser's answer to the sign-in options; it stands for both steps of two-step sign-in",
    request: { body: jsonBody(PasskeySignInBodySchema) },
    responses: { 200: json(AuthResultSchema, "Signed in"), 403: e403, ...inputErrors, 429: e429 },
  }),
  async (c) => {
    const { user, token } = await signInWithPasskey(c.get("domain"), c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(token));
    return c.json({ token, user: presentMe(user) }, 200);
  },
);
