/**
 * Web push's answers (/api/push…): written by worker/domain/push, documented by worker/api, checked by Settings →
 * Notifications with app/lib/push-shapes.ts, generated from these schemas. The page imports types only from here:
 * PUSH_KINDS is in push-kinds.ts.
 */

import { z } from "zod";
import { PUSH_KINDS, type PushKind } from "./push-kinds";

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
