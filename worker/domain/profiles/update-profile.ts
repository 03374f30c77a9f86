import { z } from "zod";
import { message } from "@shared/messages";
import { multilineText, singleLineText } from "@shared/contracts/text";
import { isoNow } from "../shared/time";
import { displayNameSchema } from "@shared/contracts/accounts";

const BIO_RULE = message("The bio may not be longer than 1000 characters.");
const LOCATION_RULE = message("The location may not be longer than 60 characters.");
const WEBSITE_RULE = message("The website must be an https:// address.");

/** Only https links: they are shown to everyone, and a javascript: or http: link would be a trap. */
const websiteSchema = singleLineText()
  .trim()
  .max(200, WEBSITE_RULE)
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, WEBSITE_RULE);

/** Edit profile (Settings → Profile). The avatar and cover have their own calls (POST /api/me/avatar|cover). */
export const ProfileInputSchema = z.object({
  name: displayNameSchema,
  bio: multilineText().trim().max(1000, BIO_RULE).default(""),
  location: singleLineText().trim().max(60, LOCATION_RULE).default(""),
  website: websiteSchema.default(""),
});

export type ProfileInput = z.output<typeof ProfileInputSchema>;

export async function updateProfile(db: D1Database, userId: number, input: ProfileInput): Promise<void> {
  await db
    .prepare("UPDATE users SET name = ?, bio = ?, location = ?, website = ?, updated_at = ? WHERE id = ?")
    .bind(input.name, input.bio, input.location, input.website, isoNow(), userId)
    .run();
}
