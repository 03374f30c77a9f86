import type { ProfileInput } from "@shared/contracts/profiles";
import { isoNow } from "../shared/time";

export async function updateProfile(db: D1Database, userId: number, input: ProfileInput): Promise<void> {
  await db
    .prepare("UPDATE users SET name = ?, bio = ?, location = ?, website = ?, updated_at = ? WHERE id = ?")
    .bind(input.name, input.bio, input.location, input.website, isoNow(), userId)
    .run();
}
