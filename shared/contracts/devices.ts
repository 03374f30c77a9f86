/**
 * The signed-in devices (/api/me/sessions…): each session of the person, with the device and place it signed in
 * from. Written by worker/domain/devices, documented by worker/api, shown by Settings → Security. The page imports
 * types only from here.
 */
import { z } from "zod";
import { idText } from "./text";

const SignedInDeviceSchema = z
  .object({
    id: z.number().int().meta({ description: "The session's id: what DELETE /me/sessions/{id} ends" }),
    label: z.string().meta({ description: 'Browser and system, in the reader\'s language: "Chrome on Android"' }),
    browser: z.string().nullable().meta({ description: 'From the User-Agent: "Chrome"; null when unknown' }),
    system: z.string().nullable().meta({ description: 'From the User-Agent: "Android"; null when unknown' }),
    country: z.string().meta({ description: 'Where it signed in: ISO 3166-1 alpha-2, "XX" when unknown' }),
    place: z.string().meta({ description: "The country's name in the reader's language: \"Germany\"" }),
    createdAt: z.string().meta({ description: "When it signed in" }),
    lastActiveAt: z.string().meta({ description: "When it was last used, to the hour" }),
    current: z.boolean().meta({ description: "The session of this request" }),
  })
  .meta({ id: "SignedInDevice" });
export type SignedInDevice = z.infer<typeof SignedInDeviceSchema>;

export const SignedInDevicesSchema = z
  .object({
    sessions: z.array(SignedInDeviceSchema).meta({ description: "This one first, then the most recently used" }),
  })
  .meta({ id: "SignedInDevices" });

/** POST /me/sessions/end-others: the confirmation to show, and how many sessions ended. */
export const OtherSessionsEndedSchema = z
  .object({ message: z.string(), ended: z.number().int() })
  .meta({ id: "OtherSessionsEnded" });

/** Settings → Security's Sign out of one device (a form, hence the id as text). */
export const EndDeviceFormSchema = z.object({ sessionId: idText });
