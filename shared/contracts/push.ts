/**
 * Web push's answers (/api/push…): written by worker/domain/push, documented by worker/api, checked by Settings →
 * Notifications with app/lib/push-shapes.ts, generated from these schemas. Then the body of subscribing a device.
 * The page imports types only from here: PUSH_KINDS is in push-kinds.ts.
 */

import { z } from "zod";
import { INVALID_VALUE } from "../messages";
import { PUSH_KINDS, type PushKind } from "./push-kinds";
import { singleLineText } from "./text";

/** Each kind on or off, on all of the person's devices (also the body of PUT /push/preferences). */
export const PushPreferencesSchema = z
  .object(Object.fromEntries(PUSH_KINDS.map((kind) => [kind, z.boolean()])) as Record<PushKind, z.ZodBoolean>)
  .meta({ id: "PushPreferences" });
export type PushPreferences = z.infer<typeof PushPreferencesSchema>;

/** A device that receives pushes. */
export const PushDeviceSchema = z
  .object({
    id: z.number().int(),
    label: z.string().meta({ description: 'From the device\'s user agent when it subscribed: "Chrome on Android"' }),
    endpoint: z.string().meta({ description: 'Its PushSubscription\'s endpoint: the page finds "this device" by it' }),
    language: z.string().meta({ description: "The app language its pushes are written in" }),
    createdAt: z.string(),
    lastSentAt: z.string().nullable(),
  })
  .meta({ id: "PushDevice" });
export type PushDevice = z.infer<typeof PushDeviceSchema>;

export const PushSettingsSchema = z
  .object({
    enabled: z.boolean().meta({ description: "False when the server has no VAPID keys: push is unavailable" }),
    publicKey: z
      .string()
      .nullable()
      .meta({ description: "The applicationServerKey for PushManager.subscribe (base64url); null when push is off" }),
    preferences: PushPreferencesSchema,
    devices: z.array(PushDeviceSchema),
  })
  .meta({ id: "PushSettings" });
export type PushSettings = z.infer<typeof PushSettingsSchema>;

/** POST /push/test: the confirmation to show, and how many devices a push was queued for. */
export const PushTestSentSchema = z
  .object({ message: z.string(), devices: z.number().int() })
  .meta({ id: "PushTestSent" });
export type PushTestSent = z.infer<typeof PushTestSentSchema>;

/** base64url, as PushSubscription.toJSON() writes keys; the padding some browsers add is dropped. */
const base64UrlKey = (length: number) =>
  z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${length}}={0,2}$`), { message: INVALID_VALUE })
    .transform((key) => key.replace(/=+$/, ""));

/** The browser's PushSubscription, as its toJSON() gives it (expirationTime aside: the push service's 404/410 tells). */
export const PushSubscriptionBodySchema = z.object({
  endpoint: singleLineText().min(1).max(1024),
  keys: z.object({
    /** The device's P-256 public key, an uncompressed point (65 bytes). */
    p256dh: base64UrlKey(87),
    /** The 16-byte authentication secret of RFC 8291. */
    auth: base64UrlKey(22),
  }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionBodySchema>;
