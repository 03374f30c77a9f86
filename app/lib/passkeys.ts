/**
 * Passkeys' ceremonies in the browser, with @simplewebauthn/browser. Imported with `import()` when a person starts
 * one (Settings → Security, /login), so that no page's first load carries the library.
 */
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type { ApiClient } from "~/lib/api";
import {
  authenticationOptionsShape,
  authResultShape,
  passkeyShape,
  registrationOptionsShape,
} from "~/lib/passkey-shapes";

/** Adds a passkey: the password unlocks the options, the authenticator makes the key, the server keeps it as `name`. */
export async function addPasskey(api: ApiClient, password: string, name: string) {
  const options = await api.post("/passkeys/registration/options", { name, password }, registrationOptionsShape);
  const response = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
  return api.post("/passkeys", { name, response }, passkeyShape);
}

/** Signs in with whichever passkey of this site the person picks; the answer is a session, as a password's is. */
export async function signInWithPasskey(api: ApiClient) {
  const options = await api.post("/login/passkey/options", {}, authenticationOptionsShape);
  const response = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
  return api.post("/login/passkey", { response }, authResultShape);
}

/**
 * Why the browser's side of a ceremony stopped: the person cancelled or let it time out (the browser says
 * NotAllowedError for both, and for no key found), the authenticator already holds a key of this account, or
 * the browser cannot do it; or the request never reached the server (fetch's TypeError).
 */
export function ceremonyFailure(error: unknown): "cancelled" | "registered" | "unsupported" | "network" {
  if (error instanceof TypeError) return "network";
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "registered";
    if (error.code === "ERROR_CEREMONY_ABORTED") return "cancelled";
    return error.cause instanceof Error && error.cause.name === "NotAllowedError" ? "cancelled" : "unsupported";
  }
  return error instanceof Error && error.name === "NotAllowedError" ? "cancelled" : "unsupported";
}
