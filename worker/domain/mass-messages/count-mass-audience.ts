import type { MassMessageAudienceInput } from "@shared/contracts/message-bodies";
import type { UserRow } from "../accounts/users";
import { isoNow } from "../shared/time";
import { audienceOfListsSql } from "./begin-mass-message";
import { requireCreator } from "../policies/mass-messages";

/** The statement counting the fans of `creatorId` an include/exclude choice reaches now. */
export const countAudienceStatement = (db: D1Database, creatorId: number, audience: MassMessageAudienceInput) =>
  db.prepare(`SELECT COUNT(*) AS n FROM (${audienceOfListsSql(audience)})`).bind(creatorId, isoNow());

/** How many fans a mass message to these lists would reach now: shown before sending. */
export async function countMassAudience(
  db: D1Database,
  creator: UserRow,
  audience: MassMessageAudienceInput,
): Promise<{ recipients: number }> {
  requireCreator(creator);
  const row = await countAudienceStatement(db, creator.id, audience).first<{ n: number }>();
  return { recipients: row?.n ?? 0 };
}
