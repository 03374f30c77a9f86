/**
 * The tests' own authenticator: what a phone app computes from the secret shown in Settings (RFC 6238 with
 * SHA-1, 6 digits, 30 s), written apart from worker/domain/auth/totp.ts so that it checks it rather than repeats it.
 * WebCrypto only, so that the worker tier (workerd) and the end-to-end tier (Node) both run it.
 */
function fromBase32(text: string): Uint8Array<ArrayBuffer> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...text.toUpperCase()].map((char) => alphabet.indexOf(char).toString(2).padStart(5, "0")).join("");
  const bytes = new Uint8Array(Math.floor(bits.length / 8));
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  return bytes;
}

export async function authenticatorCode(secretBase32: string, atMs: number): Promise<string> {
  const counter = BigInt(Math.floor(atMs / 30_000));
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, counter);
  const key = await crypto.subtle.importKey("raw", fromBase32(secretBase32), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[19]! & 15;
  const value = new DataView(mac.buffer).getUint32(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, "0");
}
