import type { WatermarkSetting } from "@shared/contracts/watermarks";
import { message } from "@shared/messages";
import { watermarkText } from "@shared/watermark";
import type { UserRow } from "../accounts/users";
import { AppError } from "../shared/errors";

const ONLY_CREATORS = message("Only creators can mark their photos.");

/** The setting is a creator's: only their photos are published to fans. */
export function requireCreator(user: Pick<UserRow, "role">) {
  if (user.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS);
}

/** The setting as the user row holds it, with the mark's text at this origin (APP_URL, else the request's). */
export const presentWatermarkSetting = (
  origin: string,
  user: Pick<UserRow, "username" | "watermark">,
): WatermarkSetting => ({ on: user.watermark === 1, text: watermarkText(origin, user.username) });

/**
 * The mark a new upload gets, fixed when it starts: a creator's still photo for a post or a message, while their
 * setting is on. Avatars, covers and stories stay unmarked, as do GIFs, which would lose their motion
 * (docs/decisions/watermarks.md).
 */
export function watermarkOfUpload(
  origin: string,
  user: Pick<UserRow, "role" | "username" | "watermark">,
  purpose: string,
  contentType: string,
): string | null {
  const marked =
    user.role === "creator" &&
    user.watermark === 1 &&
    (purpose === "post" || purpose === "message") &&
    /^image\/(jpeg|png|webp)$/.test(contentType);
  return marked ? watermarkText(origin, user.username) : null;
}
