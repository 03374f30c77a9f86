/**
 * Passkeys' answers and bodies (/api/passkeys…): written by worker/domain/passkeys, documented by worker/api, checked
 * by Settings → Security and /login with app/components/settings/passkey-shapes.ts, generated from these schemas.
 * The ceremonies' options and the browser's responses are WebAuthn Level 3's JSON forms
 * (PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON…), as @simplewebauthn writes and reads them.
 * The page imports types only from here.
 */
import { z } from "zod";
import { message } from "../messages";
import { passwordText } from "./accounts";
import { singleLineText } from "./text";

const NAME_REQUIRED = message("Give the passkey a name.");
const NAME_TOO_LONG = message("A passkey's name has at most {{max}} characters.", { max: 60 });

/** What the person calls a passkey ("Laptop", "Phone"), shown in Settings → Security. */
const passkeyNameSchema = singleLineText({ message: NAME_REQUIRED })
  .trim()
  .min(1, { message: NAME_REQUIRED })
  .max(60, { message: NAME_TOO_LONG });

export const PasskeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: "The last sign-in with it; null until the first" }),
    backedUp: z.boolean().meta({ description: "The authenticator syncs it (a password manager, a cloud keychain)" }),
  })
  .meta({ id: "Passkey" });
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) }).meta({ id: "PasskeyList" });

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);
/** A credential id is at most 1023 bytes (WebAuthn §5.8.3): 1364 characters of base64url. */
const credentialId = base64url(1364);
const transports = z.array(z.string().max(32)).max(8);

const credentialDescriptor = z.object({
  id: credentialId,
  type: z.literal("public-key"),
  transports: transports.optional(),
});

export const RegistrationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal("public-key") })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
        requireResidentKey: z.boolean().optional(),
        residentKey: z.enum(["discouraged", "preferred", "required"]).optional(),
        userVerification: z.enum(["discouraged", "preferred", "required"]).optional(),
      })
      .optional(),
    attestation: z.enum(["direct", "enterprise", "indirect", "none"]).optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
    hints: z.array(z.enum(["security-key", "client-device", "hybrid"])).optional(),
  })
  .meta({
    id: "PasskeyRegistrationOptions",
    description: "For navigator.credentials.create (PublicKeyCredentialCreationOptionsJSON)",
  });
export type RegistrationOptions = z.infer<typeof RegistrationOptionsSchema>;

export const AuthenticationOptionsSchema = z
  .object({
    challenge: z.string(),
    rpId: z.string().optional(),
    timeout: z.number().int().optional(),
    allowCredentials: z.array(credentialDescriptor).optional(),
    userVerification: z.enum(["discouraged", "preferred", "required"]).optional(),
  })
  .meta({
    id: "PasskeyAuthenticationOptions",
    description: "For navigator.credentials.get (PublicKeyCredentialRequestOptionsJSON)",
  });
export type AuthenticationOptions = z.infer<typeof AuthenticationOptionsSchema>;

/**
 * The first step of adding a passkey: the account's password, since a stolen session must not add a lasting key,
 * and the name it will have, checked now: a name refused after the ceremony would leave a key on the
 * authenticator that signs in nowhere.
 */
export const RegistrationOptionsBodySchema = z.object({ name: passkeyNameSchema, password: passwordText.optional() });

/** What the browser says of the extensions (credProps…): kept as it came, read by nothing here. */
const clientExtensionResults = z.record(z.string().max(64), z.unknown());
const authenticatorAttachment = z.enum(["platform", "cross-platform"]).optional();

/** The browser's answer to navigator.credentials.create (RegistrationResponseJSON), with the name the person chose. */
export const RegisterPasskeyBodySchema = z.object({
  name: passkeyNameSchema,
  response: z.object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16384),
      authenticatorData: base64url(16384).optional(),
      transports: transports.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(4096).optional(),
    }),
    authenticatorAttachment,
    clientExtensionResults,
  }),
});
export type RegisterPasskeyInput = z.output<typeof RegisterPasskeyBodySchema>;

/** The browser's answer to navigator.credentials.get (AuthenticationResponseJSON). */
export const PasskeySignInBodySchema = z.object({
  response: z.object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      signature: base64url(4096),
      userHandle: base64url(128).optional(),
    }),
    authenticatorAttachment,
    clientExtensionResults,
  }),
});
export type PasskeySignInInput = z.output<typeof PasskeySignInBodySchema>;

export const RenamePasskeyBodySchema = z.object({ name: passkeyNameSchema });
