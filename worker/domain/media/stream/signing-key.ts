/**
 * The RSA key that signs Stream playback tokens. POST /accounts/{id}/stream/keys answers it once, both as `pem` and
 * as `jwk`, each base64-encoded; CF_STREAM_SIGNING_KEY takes either as answered, or the text it encodes. Stream's
 * pem is PKCS#1 ("BEGIN RSA PRIVATE KEY"), which WebCrypto does not import: it is wrapped into PKCS#8 here.
 */

type KeyText = { format: "jwk"; jwk: JsonWebKey } | { format: "pkcs8"; der: Uint8Array<ArrayBuffer> };

const PEM = /^-----BEGIN (RSA )?PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END (RSA )?PRIVATE KEY-----\s*$/;

function decodeBase64(text: string): string | null {
  try {
    return atob(text.replace(/\s+/g, ""));
  } catch {
    return null;
  }
}

function parseKeyText(setting: string): KeyText | null {
  const trimmed = setting.trim();
  const text = trimmed.startsWith("{") || trimmed.startsWith("-----") ? trimmed : decodeBase64(trimmed)?.trim();
  if (!text) return null;
  if (text.startsWith("{")) {
    try {
      const jwk = JSON.parse(text) as JsonWebKey;
      return jwk.kty === "RSA" && typeof jwk.d === "string" ? { format: "jwk", jwk } : null;
    } catch {
      return null;
    }
  }
  const pem = PEM.exec(text);
  if (!pem) return null;
  const der = Uint8Array.from(decodeBase64(pem[2]!) ?? "", (c) => c.charCodeAt(0));
  if (der.length === 0) return null;
  return { format: "pkcs8", der: pem[1] ? pkcs8OfPkcs1(der) : der };
}

/** Whether a setting holds a key in one of the forms above (the import itself happens on first use). */
export const isSigningKeyText = (setting: string) => parseKeyText(setting) !== null;

/** DER length octets. */
function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

/** PrivateKeyInfo { version 0, AlgorithmIdentifier rsaEncryption NULL, OCTET STRING pkcs1 } (RFC 5208). */
function pkcs8OfPkcs1(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  const version = [0x02, 0x01, 0x00];
  const rsaEncryption = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];
  const octets = [0x04, ...derLength(pkcs1.length)];
  const bodyLength = version.length + rsaEncryption.length + octets.length + pkcs1.length;
  const head = [0x30, ...derLength(bodyLength), ...version, ...rsaEncryption, ...octets];
  const out = new Uint8Array(head.length + pkcs1.length);
  out.set(head);
  out.set(pkcs1, head.length);
  return out;
}

const imported = new Map<string, Promise<CryptoKey>>();

/** The key for RS256 signatures, imported once per isolate. */
export function signingKeyOf(setting: string): Promise<CryptoKey> {
  let key = imported.get(setting);
  if (!key) {
    const parsed = parseKeyText(setting);
    if (!parsed) throw new Error("CF_STREAM_SIGNING_KEY is not a key");
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    key =
      parsed.format === "jwk"
        ? crypto.subtle.importKey("jwk", { ...parsed.jwk, alg: "RS256" }, algorithm, false, ["sign"])
        : crypto.subtle.importKey("pkcs8", parsed.der, algorithm, false, ["sign"]);
    // A key that fails to import is tried again next time rather than kept failing.
    key.catch(() => imported.delete(setting));
    imported.set(setting, key);
  }
  return key;
}
