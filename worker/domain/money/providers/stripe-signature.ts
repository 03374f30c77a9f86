/**
 * Stripe's webhook signature: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where each v1 is the
 * hex HMAC-SHA256 of `${t}.${rawBody}` under the endpoint's secret (several while a secret is being rolled).
 * https://docs.stripe.com/webhooks#verify-manually
 */
const encoder = new TextEncoder();

/** Stripe's default: an event signed more than five minutes away from now is a replay or a broken clock. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

function bytesOfHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
}

export async function verifyStripeSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  if (!header) return false;
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamps = parts.filter(([key]) => key === "t").map(([, value]) => value ?? "");
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!)) return false;
  const timestamp = Number(timestamps[0]);
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const signatures = parts.filter(([key]) => key === "v1").map(([, value]) => bytesOfHex(value ?? ""));
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  const signed = encoder.encode(`${timestamps[0]}.${rawBody}`);
  let valid = false;
  // WebCrypto's verify compares in constant time; every candidate is checked so the time does not tell which matched.
  for (const signature of signatures)
    if (signature && (await crypto.subtle.verify("HMAC", key, signature, signed))) valid = true;
  return valid;
}
