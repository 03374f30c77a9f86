import type { PushDevice, PushSubscriptionInput } from "@shared/contracts/push";
import type { DomainContext } from "../context";
import { AppError, fieldError } from "../shared/errors";
import { INVALID_VALUE, message } from "@shared/messages";
import { isPushServiceEndpoint } from "./endpoints";
import { isoNow } from "../shared/time";
import { vapidOf, type Config } from "../../env";
import { deviceLabel, deviceOfUserAgent } from "../devices/user-agent";

/** Push is on when the VAPID keys are configured; without them nothing is offered and nothing is sent. */
export const pushIsOn = (settings: Config) => vapidOf(settings) !== null;

/** Devices one account may receive pushes on; a 21st is refused until one is removed. */
const MAX_PUSH_DEVICES = 20;

export const PUSH_OFF = message("Push notifications are not available on this server.");
const TOO_MANY_DEVICES = message("You can receive push notifications on at most {{count}} devices. Remove one first.");
const DEVICE_NOT_FOUND = message("This device does not receive your push notifications.");
const NOT_A_PUSH_SERVICE = message(
  "Push notifications can only go through a browser's push service: this address is not one this server sends to.",
);

interface DeviceRow {
  id: number;
  label: string;
  endpoint: string;
  language: string;
  created_at: string;
  last_sent_at: string | null;
}

const deviceOf = (row: DeviceRow): PushDevice => ({
  id: row.id,
  label: row.label,
  endpoint: row.endpoint,
  language: row.language,
  createdAt: row.created_at,
  lastSentAt: row.last_sent_at,
});

/** The key must be a point on P-256, or every push to the device would fail at encryption. */
async function isP256Point(base64Url: string): Promise<boolean> {
  const bytes = Uint8Array.from(atob(base64Url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    await crypto.subtle.importKey("raw", bytes, { name: "ECDH", namedCurve: "P-256" }, false, []);
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns push on for the caller's device: stores its subscription, or updates it when the endpoint is known —
 * moving it to the caller when another account had it (one browser profile, two accounts: the last one to
 * turn push on gets the pushes). Refused while push is off on the server, for an endpoint that is not a listed push
 * service's (endpoints.ts) or a bad key, and past MAX_PUSH_DEVICES.
 */
export async function subscribeDevice(
  ctx: Pick<DomainContext, "db" | "config" | "userAgent" | "language" | "t">,
  userId: number,
  input: PushSubscriptionInput,
): Promise<PushDevice> {
  if (!pushIsOn(ctx.config)) throw new AppError("conflict", PUSH_OFF);
  if (!isPushServiceEndpoint(input.endpoint, ctx.config.PUSH_SERVICE_HOSTS, ctx.config.APP_ENV))
    throw fieldError("endpoint", NOT_A_PUSH_SERVICE);
  if (!(await isP256Point(input.keys.p256dh))) throw fieldError("keys.p256dh", INVALID_VALUE);
  const count = await ctx.db
    .prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ? AND endpoint <> ?")
    .bind(userId, input.endpoint)
    .first<{ n: number }>();
  if ((count?.n ?? 0) >= MAX_PUSH_DEVICES)
    throw new AppError("conflict", TOO_MANY_DEVICES, {}, { count: MAX_PUSH_DEVICES });
  const row = await ctx.db
    .prepare(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, language, label, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         language = excluded.language, label = excluded.label,
         created_at = CASE WHEN push_subscriptions.user_id = excluded.user_id THEN push_subscriptions.created_at ELSE excluded.created_at END,
         last_sent_at = CASE WHEN push_subscriptions.user_id = excluded.user_id THEN push_subscriptions.last_sent_at END
       RETURNING id, label, endpoint, language, created_at, last_sent_at`,
    )
    .bind(
      userId,
      input.endpoint,
      input.keys.p256dh,
      input.keys.auth,
      ctx.language,
      deviceLabel(deviceOfUserAgent(ctx.userAgent), ctx.t).slice(0, 100),
      isoNow(),
    )
    .first<DeviceRow>();
  return deviceOf(row!);
}

/** The caller's devices, oldest first. */
export async function listDevices(db: D1Database, userId: number): Promise<PushDevice[]> {
  const { results } = await db
    .prepare(
      "SELECT id, label, endpoint, language, created_at, last_sent_at FROM push_subscriptions WHERE user_id = ? ORDER BY id",
    )
    .bind(userId)
    .all<DeviceRow>();
  return results.map(deviceOf);
}

/** Stops pushes to one of the caller's devices; another account's device is a 404, like one that never was. */
export async function removeDevice(db: D1Database, userId: number, deviceId: number): Promise<void> {
  const result = await db
    .prepare("DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?")
    .bind(deviceId, userId)
    .run();
  if ((result.meta.changes ?? 0) === 0) throw new AppError("not_found", DEVICE_NOT_FOUND);
}
