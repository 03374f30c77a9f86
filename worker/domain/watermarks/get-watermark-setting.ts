import type { WatermarkSetting } from "@shared/contracts/watermarks";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { presentWatermarkSetting, requireCreator } from "./watermarks";

/**
 * A creator's watermark setting, read from D1 rather than from the session's user (a read may reuse a copy of the
 * session a few seconds old, which would not show a change just made).
 */
export async function getWatermarkSetting(
  ctx: Pick<DomainContext, "db" | "origin">,
  user: UserRow,
): Promise<WatermarkSetting> {
  requireCreator(user);
  const row = await ctx.db
    .prepare("SELECT username, watermark FROM users WHERE id = ?")
    .bind(user.id)
    .first<Pick<UserRow, "username" | "watermark">>();
  return presentWatermarkSetting(ctx.origin, row ?? user);
}
