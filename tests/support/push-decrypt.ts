/**
 * The browser's side of RFC 8291 (aes128gcm web push encryption), written from the RFC with WebCrypto only
 * (ECDH, HKDF, AES-GCM), independently of the sender's library: what a device does with a push it receives.
 * tests/worker/push.test.ts checks it against the RFC's Appendix A example before trusting it.
 */

export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

export const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
};

/** A device's keys as the browser keeps them: its P-256 key pair (public point, private scalar d) and auth secret. */
export interface DeviceKeys {
  /** The uncompressed public point (65 bytes), base64url: the subscription's p256dh. */
  publicKey: string;
  /** The private scalar d, base64url. */
  privateKey: string;
  /** The 16-byte authentication secret, base64url. */
  auth: string;
}

async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  bytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/** Decrypts one aes128gcm push body (RFC 8188 header + one record) for the device; throws if it does not authenticate. */
export async function decryptPush(body: Uint8Array<ArrayBuffer>, device: DeviceKeys): Promise<Uint8Array<ArrayBuffer>> {
  // RFC 8188 §2.1: salt (16) | record size (4) | key id length (1) | key id (the sender's public key, RFC 8291 §4).
  const salt = body.slice(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idLength = body[20]!;
  const senderPublic = body.slice(21, 21 + idLength);
  const record = body.slice(21 + idLength);
  if (idLength !== 65 || record.length > recordSize)
    throw new Error(
      `not a single-record aes128gcm body (key id ${idLength} bytes, record ${record.length} of ${recordSize})`,
    );

  const devicePublic = fromBase64Url(device.publicKey);
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    {
      kty: "EC",
      crv: "P-256",
      x: toBase64Url(devicePublic.slice(1, 33)),
      y: toBase64Url(devicePublic.slice(33, 65)),
      d: device.privateKey,
    },
    { name: "ECDH", namedCurve: "P-256" },
    false,
    ["deriveBits"],
  );
  const senderKey = await crypto.subtle.importKey(
    "raw",
    senderPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdhSecret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: senderKey }, privateKey, 256),
  );

  // RFC 8291 §3.4: IKM from the ECDH secret and the auth secret; then RFC 8188 §2.2–2.3: CEK and nonce.
  const keyInfo = concat(utf8("WebPush: info\0"), devicePublic, senderPublic);
  const ikm = await hkdf(fromBase64Url(device.auth), ecdhSecret, keyInfo, 32);
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);

  const aes = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, aes, record));
  // RFC 8188 §2: the plaintext, a delimiter (2 in the last record), then zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the record does not end with the last-record delimiter");
  return padded.slice(0, end);
}
