import { buildPushPayload, type PushMessage } from "@block65/webcrypto-web-push";
import type { PushPayload } from "../domain/push/push-payload";

export interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a push service keeps a push for an offline device, and how hard it tries to wake it (RFC 8030 §5). */
export interface Delivery {
  ttlSeconds: number;
  urgency: "low" | "normal" | "high";
}

/**
 * The request that delivers `payload` to one device: the JSON encrypted for its keys (RFC 8291, aes128gcm) and
 * signed for its push service (RFC 8292, VAPID). The library refuses an http endpoint, which only the test tier
 * allows (its fake push service on this machine): the VAPID token is then made for the https form of its origin.
 * A redirect is not followed: it could lead anywhere, and push services answer RFC 8030's statuses instead.
 */
export async function pushRequest(
  vapid: Vapid,
  target: PushTarget,
  payload: PushPayload,
  delivery: Delivery,
): Promise<Request> {
  const signedFor = target.endpoint.replace(/^http:/, "https:");
  const message: PushMessage = {
    data: { ...payload },
    options: { ttl: delivery.ttlSeconds, urgency: delivery.urgency },
  };
  const built = await buildPushPayload(
    message,
    { endpoint: signedFor, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } },
    vapid,
  );
  return new Request(target.endpoint, { method: "POST", headers: built.headers, body: built.body, redirect: "manual" });
}
