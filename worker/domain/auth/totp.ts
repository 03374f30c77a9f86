/**
 * Time-based one-time passwords as authenticator apps make them (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1 of the
 * number of 30-second steps since the epoch, cut to 6 digits. WebCrypto does the HMAC, so it runs in workerd as is.
 */
import { safeEqualText } from "../shared/crypto";

const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of the current one that are still accepted: a phone's clock a little off, a slow typist. */
const WINDOW = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: how otpauth:// URIs and authenticator apps write a secret. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let text = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += BASE32[(value << (5 - bits)) & 31];
  return text;
}

export function base32Decode(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(bytes);
}

/** A new secret: 160 bits, the length RFC 4226 recommends for HMAC-SHA-1. */
export const newTotpSecret = () => crypto.getRandomValues(new Uint8Array(20));

/** RFC 4226 §5.3: the HOTP value of `counter`, `digits` long. */
export async function hotp(secret: Uint8Array<ArrayBuffer>, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message.buffer));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

const totpStepAt = (timeMs: number) => Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);

/** The code an authenticator shows at `timeMs`. */
export const totpAt = (secret: Uint8Array<ArrayBuffer>, timeMs: number, digits = TOTP_DIGITS) =>
  hotp(secret, totpStepAt(timeMs), digits);

/**
 * The time step whose code `code` is, within one step either side of `timeMs`, and newer than `afterStep` (a step
 * already used is never accepted again); null when none is.
 */
export async function matchTotp(
  secret: Uint8Array<ArrayBuffer>,
  code: string,
  timeMs: number,
  afterStep: number,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStepAt(timeMs);
  let matched: number | null = null;
  // Every candidate is computed and compared, so that the time taken says nothing about which one matched.
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const same = safeEqualText(await hotp(secret, step), code);
    if (same && step > afterStep && matched === null) matched = step;
  }
  return matched;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
