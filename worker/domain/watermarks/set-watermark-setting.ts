import type { WatermarkInput, WatermarkSetting } from "@shared/contracts/watermarks";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { presentWatermarkSetting, requireCreator } from "./watermarks";

/**
 * Turns the mark on a creator's photos on or off. It applies to photos uploaded from now on: a photo keeps the
 * copies it was uploaded with (fans' copies of an earlier marked photo are marked, and there is no unmarked copy
 * to serve them instead).
 */
export async function setWatermarkSetting(
  ctx: DomainContext,
  user: UserRow,
  input: WatermarkInput,
): Promise<WatermarkSetting> {
  requireCreator(user);
  const watermark = input.on ? 1 : 0;
  await ctx.db.prepare("UPDATE users SET watermark = ? WHERE id = ?").bind(watermark, user.id).run();
  return presentWatermarkSetting(ctx.origin, { ...user, watermark });
}
