import { encodeCbor, type CborValue } from "./cbor";

/**
 * A software passkey authenticator for the worker tier: WebCrypto P-256 keys (COSE ES256), attestation "none",
 * user present and verified, discoverable (it answers a sign-in that names no credential with the key it holds
 * for the RP ID). It plays the browser too: it writes clientDataJSON with the origin it is given. Its answers are
 * the JSON forms the browser library sends (RegistrationResponseJSON, AuthenticationResponseJSON).
 */

const encoder = new TextEncoder();

const toBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const uint32 = (value: number) =>
  new Uint8Array([value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);

/** WebAuthn's ES256 signatures are ASN.1 DER; WebCrypto's are r‖s (32 bytes each). */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const value = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, value.length]), value);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

interface Credential {
  id: Uint8Array;
  keys: CryptoKeyPair;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface RegistrationOptionsLike {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface AuthenticationOptionsLike {
  challenge: string;
  rpId?: string;
}

export interface SignOptions {
  /** Another origin than the one the authenticator was made with (a phishing page). */
  origin?: string;
  /** The user handle to report (another account's). */
  userHandle?: string;
  /** Sign with this key pair instead of the credential's (a forged signature). */
  signWith?: CryptoKeyPair;
  /** The counter to report instead of the next one (a cloned key's). */
  counter?: number;
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  static newKeyPair(): Promise<CryptoKeyPair> {
    return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.origin) {
    return encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: a new key for the options' RP and user. */
  async register(options: RegistrationOptionsLike, { origin }: { origin?: string } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const keys = await SoftAuthenticator.newKeyPair();
    const id = crypto.getRandomValues(new Uint8Array(32));
    const credential: Credential = { id, keys, rpId, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);

    const jwk = await crypto.subtle.exportKey("jwk", keys.publicKey);
    const coseKey = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, fromBase64url(jwk.x!)],
        [-3, fromBase64url(jwk.y!)],
      ]),
    );
    const authenticatorData = concat(
      await sha256(encoder.encode(rpId)),
      new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA]),
      uint32(credential.counter),
      new Uint8Array(16), // AAGUID: none
      new Uint8Array([id.length >> 8, id.length & 0xff]),
      id,
      coseKey,
    );
    const attestationObject = encodeCbor(
      new Map<string, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map<string, CborValue>()],
        ["authData", authenticatorData],
      ]),
    );
    return {
      id: toBase64url(id),
      rawId: toBase64url(id),
      type: "public-key" as const,
      response: {
        clientDataJSON: toBase64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: toBase64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get with no credential named: the newest key this authenticator holds for the RP. */
  async signIn(options: AuthenticationOptionsLike, change: SignOptions = {}) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const credential = this.credentials.findLast((candidate) => candidate.rpId === rpId);
    if (!credential) throw new Error(`no passkey for ${rpId}`);
    credential.counter += 1;
    const authenticatorData = concat(
      await sha256(encoder.encode(rpId)),
      new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
      uint32(change.counter ?? credential.counter),
    );
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, change.origin);
    const signed = concat(authenticatorData, await sha256(clientDataJSON));
    const raw = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      (change.signWith ?? credential.keys).privateKey,
      signed,
    );
    return {
      id: toBase64url(credential.id),
      rawId: toBase64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: toBase64url(clientDataJSON),
        authenticatorData: toBase64url(authenticatorData),
        signature: toBase64url(derSignature(new Uint8Array(raw))),
        userHandle: change.userHandle ?? credential.userHandle,
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
  }
}
