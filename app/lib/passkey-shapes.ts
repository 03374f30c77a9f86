// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { AuthenticationOptions, Passkey, RegistrationOptions } from "@shared/contracts/passkeys";
import type { Me } from "@shared/contracts/session";
import { currentUserShape } from "~/lib/api-shapes";
import { array, boolean, nullable, number, literal, object, oneOf, optional, string, type Shape } from "@shared/shape";

export const registrationOptionsShape: Shape<RegistrationOptions> = object({
  challenge: string,
  rp: object({ name: string, id: optional(string) }),
  user: object({ id: string, name: string, displayName: string }),
  pubKeyCredParams: array(object({ alg: number, type: literal("public-key") })),
  timeout: optional(number),
  excludeCredentials: optional(
    array(object({ id: string, type: literal("public-key"), transports: optional(array(string)) })),
  ),
  authenticatorSelection: optional(
    object({
      authenticatorAttachment: optional(oneOf("platform", "cross-platform")),
      requireResidentKey: optional(boolean),
      residentKey: optional(oneOf("discouraged", "preferred", "required")),
      userVerification: optional(oneOf("discouraged", "preferred", "required")),
    }),
  ),
  attestation: optional(oneOf("direct", "enterprise", "indirect", "none")),
  extensions: optional(object({ credProps: optional(boolean) })),
  hints: optional(array(oneOf("security-key", "client-device", "hybrid"))),
});

export const authenticationOptionsShape: Shape<AuthenticationOptions> = object({
  challenge: string,
  rpId: optional(string),
  timeout: optional(number),
  allowCredentials: optional(
    array(object({ id: string, type: literal("public-key"), transports: optional(array(string)) })),
  ),
  userVerification: optional(oneOf("discouraged", "preferred", "required")),
});

export const passkeyShape: Shape<Passkey> = object({
  id: number,
  name: string,
  createdAt: string,
  lastUsedAt: nullable(string),
  backedUp: boolean,
});

export const authResultShape: Shape<{ token: string; user: Me }> = object({ token: string, user: currentUserShape });
