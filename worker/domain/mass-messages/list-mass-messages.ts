import type { MassMessageView } from "@shared/contracts/messages";
import { MASS_MESSAGE_WITH_RESULTS_SQL, presentMassMessage, type MassMessageResultRow } from "./mass-message-rows";

/** The creator's 20 latest mass messages, newest first, with their status and results. */
export async function listMassMessages(db: D1Database, creatorId: number): Promise<MassMessageView[]> {
  const { results } = await db
    .prepare(`${MASS_MESSAGE_WITH_RESULTS_SQL} WHERE mm.sender_id = ? ORDER BY mm.id DESC LIMIT 20`)
    .bind(creatorId)
    .all<MassMessageResultRow>();
  return results.map(presentMassMessage);
}
