import { base64url, fromBase64url } from "../shared/crypto";

/**
 * An authenticator secret is stored encrypted (AES-256-GCM, a random 96-bit IV in front of the ciphertext), with a
 * key derived from APP_SECRET by HKDF: a copy of the database alone does not give anyone's codes away. Rotating
 * APP_SECRET therefore turns every authenticator off in effect (the recovery codes and the emailed code still work).
 */
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(appSecret: string): Promise<CryptoKey> {
  let key = keys.get(appSecret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", new TextEncoder().encode(appSecret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          {
            name: "HKDF",
            hash: "SHA-256",
            salt: new Uint8Array(0),
            info: new TextEncoder().encode("two-step secret"),
          },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(appSecret, key);
  }
  return key;
}

export async function encryptSecret(appSecret: string, secret: Uint8Array<ArrayBuffer>): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(appSecret), secret));
  const stored = new Uint8Array(iv.length + sealed.length);
  stored.set(iv);
  stored.set(sealed, iv.length);
  return base64url(stored);
}

/** The secret, or null when it cannot be opened (APP_SECRET changed since). */
export async function decryptSecret(appSecret: string, stored: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const bytes = fromBase64url(stored);
  if (!bytes || bytes.length < 13) return null;
  try {
    const opened = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12) },
      await keyOf(appSecret),
      bytes.slice(12),
    );
    return new Uint8Array(opened);
  } catch {
    return null;
  }
}
