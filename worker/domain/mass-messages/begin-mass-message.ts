import type { MassMessageAudienceInput } from "@shared/contracts/message-bodies";
import { audienceSql } from "../fan-lists/audience";
import type { MassMessageRow } from "./mass-message-rows";

/**
 * The fans of `audience` (ListRefs) for statements binding ?1 the creator and ?2 now. Not every list reads the
 * time, and D1 refuses a parameter bound but never named, so the time is named here whatever the lists.
 */
export const audienceOfListsSql = (audience: MassMessageAudienceInput) =>
  `SELECT fan FROM (${audienceSql(audience.include, audience.exclude)}) WHERE ?2 IS NOT NULL`;

/** What the Queue carries: which mass message has recipients left. */
export interface MassMessageJob {
  massMessageId: number;
}

/** Enqueues a job; the Worker passes its Queue binding. */
export type EnqueueMassMessage = (job: MassMessageJob) => Promise<void>;

/**
 * The two statements that make a scheduled mass message go, for one D1 batch: its audience now is written down as
 * its recipients, then it turns 'sending' with their count (RETURNING the row). Both are guarded by the status
 * 'scheduled', so of two runs racing (two cron runs, an edit to "now" and the cron), only the one whose batch comes
 * first writes anything; the other's UPDATE returns no row and it enqueues nothing. `idSql` names the row
 * (?3 and after are `idBinds`); ?1 is the creator, ?2 now.
 */
export function beginStatements(
  db: D1Database,
  creatorId: number,
  audience: MassMessageAudienceInput,
  idSql: string,
  idBinds: unknown[],
  at: string,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO mass_message_recipients (mass_message_id, fan_id)
         SELECT mm.id, a.fan FROM mass_messages mm, (${audienceOfListsSql(audience)}) a
         WHERE mm.id = ${idSql} AND mm.status = 'scheduled' ON CONFLICT DO NOTHING`,
      )
      .bind(creatorId, at, ...idBinds),
    db
      .prepare(
        `UPDATE mass_messages SET status = 'sending', send_at = ?2,
           recipients = (SELECT COUNT(*) FROM mass_message_recipients r WHERE r.mass_message_id = mass_messages.id)
         WHERE id = ${idSql} AND sender_id = ?1 AND status = 'scheduled' RETURNING *`,
      )
      .bind(creatorId, at, ...idBinds),
  ];
}

/** The audience a stored row names (validated when it was written). */
export const audienceOf = (row: Pick<MassMessageRow, "include_lists" | "exclude_lists">): MassMessageAudienceInput => ({
  include: JSON.parse(row.include_lists) as string[],
  exclude: JSON.parse(row.exclude_lists) as string[],
});
