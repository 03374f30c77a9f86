import type { SignedInDevice } from "@shared/contracts/devices";
import type { DomainContext } from "../context";
import { isoNow } from "../shared/time";
import { deviceLabel, deviceOfUserAgent } from "./user-agent";
import { placeName } from "./place-name";

interface SessionRow {
  id: number;
  user_agent: string;
  country: string;
  region: string | null;
  created_at: string;
  last_active_at: string;
}

/** Every session of the person that has not expired: this one first, then the most recently used. */
export async function listSignedInDevices(
  ctx: Pick<DomainContext, "db" | "language" | "t">,
  session: { sessionId: number; user: { id: number } },
): Promise<SignedInDevice[]> {
  const { results } = await ctx.db
    .prepare(
      `SELECT id, user_agent, country, region, created_at, last_active_at FROM sessions
       WHERE user_id = ? AND expires_at > ? ORDER BY id = ? DESC, last_active_at DESC, id DESC`,
    )
    .bind(session.user.id, isoNow(), session.sessionId)
    .all<SessionRow>();
  return results.map((row) => {
    const device = deviceOfUserAgent(row.user_agent);
    return {
      id: row.id,
      label: deviceLabel(device, ctx.t),
      ...device,
      country: row.country,
      place: placeName(row.country, row.region, ctx.language, ctx.t),
      createdAt: row.created_at,
      lastActiveAt: row.last_active_at,
      current: row.id === session.sessionId,
    };
  });
}
