import {
  MAX_LIVE_GOAL_CENTS,
  MAX_LIVE_PRICE_CENTS,
  MIN_LIVE_GOAL_CENTS,
  MIN_LIVE_PRICE_CENTS,
  type LiveEndReason,
  type LiveTransportKind,
} from "@shared/contracts/live-limits";
import type { LiveStreamView } from "@shared/contracts/live";
import { publicMediaUrl, type UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { liveAudienceSql } from "./audience";
import {
  audienceAdmits,
  liveAccessAmongRead,
  liveFactsSql,
  LIVE_NOT_FOUND,
  LIVE_STREAM_COLUMNS,
  liveFactsOf,
  livePermissionsOf,
  requireLiveAccess,
  type LiveAccess,
  type LiveFacts,
  type LiveFactsRow,
  type LiveStreamRow,
} from "../policies/live";
import { AppError, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import type { StartLiveInput } from "@shared/contracts/live-bodies";

const ONLY_CREATORS_GO_LIVE = message("Only creators can go live.");
const ALREADY_LIVE = message("You are already live. End that stream first.");
const LIVE_PRICE_RANGE = message("An entry price is between {{min, money}} and {{max, money}}, or nothing.");
const LIVE_GOAL_RANGE = message("A tip goal is between {{min, money}} and {{max, money}}.");

/**
 * Goes live: one stream per creator at a time (the database's partial unique index settles two concurrent
 * starts), its followers and subscribers notified in the same batch (one INSERT … SELECT, however many they
 * are; a block either way is skipped), announced once written (LiveStarted: sockets and push).
 */
export async function startLiveStream(
  ctx: Pick<DomainContext, "db" | "publish">,
  creator: UserRow,
  input: StartLiveInput,
  media: { transport: LiveTransportKind; inputId: string | null; publishUrl: string | null; playUrl: string | null },
): Promise<LiveStreamView> {
  if (creator.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_GO_LIVE);
  if (input.priceCents !== 0 && (input.priceCents < MIN_LIVE_PRICE_CENTS || input.priceCents > MAX_LIVE_PRICE_CENTS)) {
    throw fieldError("priceCents", LIVE_PRICE_RANGE, { min: MIN_LIVE_PRICE_CENTS, max: MAX_LIVE_PRICE_CENTS });
  }
  if (input.goalCents !== null && (input.goalCents < MIN_LIVE_GOAL_CENTS || input.goalCents > MAX_LIVE_GOAL_CENTS)) {
    throw fieldError("goalCents", LIVE_GOAL_RANGE, { min: MIN_LIVE_GOAL_CENTS, max: MAX_LIVE_GOAL_CENTS });
  }
  const now = isoNow();
  const goalTitle = input.goalCents !== null && input.goalTitle ? input.goalTitle : null;
  let streamId: number;
  try {
    const [inserted] = await ctx.db.batch<{ id: number }>([
      ctx.db
        .prepare(
          `INSERT INTO live_streams (creator_id, title, audience, price_cents, goal_cents, goal_title, transport, media_input_id, publish_url, play_url, status, started_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'live', ?) RETURNING id`,
        )
        .bind(
          creator.id,
          input.title,
          input.audience,
          input.priceCents,
          input.goalCents,
          goalTitle,
          media.transport,
          media.inputId,
          media.publishUrl,
          media.playUrl,
          now,
        ),
      ctx.db
        .prepare(
          `INSERT INTO notifications (user_id, kind, actor_id, params, created_at)
           SELECT t.user_id, 'live', ?1, json_object('streamId', (SELECT id FROM live_streams WHERE creator_id = ?1 AND status = 'live'), 'title', ?2), ?3
           FROM (${liveAudienceSql("?1", "?3")}) t`,
        )
        .bind(creator.id, input.title, now),
    ]);
    streamId = inserted!.results[0]!.id;
  } catch (error) {
    if (String(error).includes("UNIQUE constraint failed: live_streams.creator_id"))
      throw new AppError("conflict", ALREADY_LIVE);
    throw error;
  }
  ctx.publish({ type: "LiveStarted", streamId, creatorId: creator.id });
  return (await getLiveStream(ctx.db, creator, streamId))!;
}

/**
 * Ends a live stream, once: by its creator, by the LiveRoom's alarm when the creator went silent, or by a
 * moderator. Returns whether this call ended it (false: it had ended already, or does not exist).
 */
export async function endLiveStream(
  ctx: Pick<DomainContext, "db" | "publish">,
  streamId: number,
  reason: LiveEndReason,
): Promise<boolean> {
  const ended = await ctx.db
    .prepare(
      "UPDATE live_streams SET status = 'ended', ended_at = ?, end_reason = ?, viewers = 0 WHERE id = ? AND status = 'live' RETURNING id",
    )
    .bind(isoNow(), reason, streamId)
    .first<{ id: number }>();
  if (!ended) return false;
  ctx.publish({ type: "LiveEnded", streamId, reason });
  return true;
}

/** The creator's "End stream": their own stream only (anyone else's is "not found"). */
export async function endOwnLiveStream(
  ctx: Pick<DomainContext, "db" | "publish">,
  creator: UserRow,
  streamId: number,
): Promise<LiveStreamView> {
  const stream = await ctx.db
    .prepare("SELECT creator_id FROM live_streams WHERE id = ?")
    .bind(streamId)
    .first<{ creator_id: number }>();
  if (!stream || stream.creator_id !== creator.id) throw LIVE_NOT_FOUND_ERROR();
  await endLiveStream(ctx, streamId, "creator");
  return (await getLiveStream(ctx.db, creator, streamId))!;
}

export function presentLiveStream(row: LiveStreamRow, facts: LiveFacts): LiveStreamView {
  return {
    id: row.id,
    title: row.title,
    audience: row.audience,
    priceCents: row.price_cents,
    goal: row.goal_cents === null ? null : { cents: row.goal_cents, title: row.goal_title },
    transport: row.transport,
    status: row.status,
    endReason: row.end_reason,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    viewers: row.viewers,
    peakViewers: row.peak_viewers,
    tipsCents: row.tips_cents,
    creator: {
      id: row.creator_id,
      username: row.creator_username,
      name: row.creator_name,
      avatarUrl: publicMediaUrl(row.creator_avatar_key),
    },
    viewer: livePermissionsOf(row, facts),
  };
}

export const LIVE_NOT_FOUND_ERROR = () => new AppError("not_found", LIVE_NOT_FOUND);

/** One stream for the viewer, or null when it does not exist for them (the audience shuts them out, a block). */
export async function getLiveStream(db: D1Database, viewer: UserRow, streamId: number): Promise<LiveStreamView | null> {
  try {
    const access = await requireLiveAccess(db, viewer, streamId, "see");
    return presentLiveStream(access.stream, access.facts);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** The creator's stream that is live now, with its row (the studio needs its publish address), if any. */
export const currentLiveAccessOf = (db: D1Database, creator: UserRow): Promise<LiveAccess | null> =>
  readOne(currentLiveAccessRead(db, creator));

/** currentLiveAccessOf as a read, for a page that sends it in one batch with its other reads. */
export function currentLiveAccessRead(db: D1Database, creator: UserRow): Read<LiveAccess | null> {
  const { statement, answer } = liveAccessAmongRead(
    db,
    creator,
    "SELECT id FROM live_streams WHERE creator_id = ?3 AND status = 'live' LIMIT 1",
    "ls.id",
    creator.id,
  );
  return { statement, answer: (result) => answer(result)[0] ?? null };
}

/** The creator's stream that is live now, if any (/live/start shows the studio then). */
export async function currentLiveStreamOf(db: D1Database, creator: UserRow): Promise<LiveStreamView | null> {
  const access = await currentLiveAccessOf(db, creator);
  return access ? presentLiveStream(access.stream, access.facts) : null;
}

const LIVE_LIST_LIMIT = 50;

/**
 * "Streaming right now" for the viewer: the live streams whose audience admits them, creators they subscribe to
 * first, then those they follow, then the rest; newest first within each. One statement over the partial index
 * of live streams (live_streams_now), the facts computed per row.
 */
export const listLiveNow = (db: D1Database, viewer: UserRow): Promise<LiveStreamView[]> =>
  readOne(liveNowRead(db, viewer));

/** listLiveNow as a read, for a page that sends it in one batch with its other reads. */
export function liveNowRead(db: D1Database, viewer: UserRow): Read<LiveStreamView[]> {
  const statement = db
    .prepare(
      `SELECT ${LIVE_STREAM_COLUMNS}, ${liveFactsSql("?1")}
       FROM live_streams ls INDEXED BY live_streams_now JOIN users o ON o.id = ls.creator_id
       WHERE ls.status = 'live' AND NOT l_blocked AND NOT l_creator_hidden
         AND (ls.creator_id = ?1 OR ls.audience = 'everyone' OR (ls.audience = 'followers' AND (l_follows OR l_subscribes)) OR l_subscribes)
       ORDER BY l_subscribes DESC, l_follows DESC, ls.started_at DESC
       LIMIT ?3`,
    )
    .bind(viewer.id, isoNow(), LIVE_LIST_LIMIT);
  // The statement filters by the audience; the policy's own rule has the last word.
  return {
    statement,
    answer: (result) =>
      seenStreams(
        (result.results as (LiveStreamRow & LiveFactsRow)[]).map((row) => ({
          stream: row,
          facts: liveFactsOf(viewer.id, row, row),
        })),
      ),
  };
}

/** A creator's past streams (their profile, the studio's history), newest first. */
export const listEndedStreamsOf = (
  db: D1Database,
  viewer: UserRow,
  creatorId: number,
  limit = 10,
): Promise<LiveStreamView[]> => readOne(endedStreamsOfRead(db, viewer, creatorId, limit));

/** listEndedStreamsOf as a read, for a page that sends it in one batch with its other reads. */
export function endedStreamsOfRead(
  db: D1Database,
  viewer: UserRow,
  creatorId: number,
  limit = 10,
): Read<LiveStreamView[]> {
  const { statement, answer } = liveAccessAmongRead(
    db,
    viewer,
    "SELECT id FROM live_streams WHERE creator_id = ?3 AND status = 'ended' ORDER BY id DESC LIMIT ?4",
    "ls.id DESC",
    creatorId,
    limit,
  );
  return { statement, answer: (result) => seenStreams(answer(result)) };
}

const seenStreams = (found: LiveAccess[]): LiveStreamView[] =>
  found.flatMap(({ stream, facts }) =>
    audienceAdmits(stream.audience, facts) ? [presentLiveStream(stream, facts)] : [],
  );

/** How far back /live lists the streams that ended. */
const RECENTLY_ENDED_DAYS = 7;

/**
 * "Recently ended" on /live: the streams of the last RECENTLY_ENDED_DAYS by the viewer and the creators they
 * follow or subscribe to, newest first; one statement over each creator's streams (live_streams_of_creator),
 * then the policy over the few ids found.
 */
export function recentlyEndedRead(db: D1Database, viewer: UserRow, limit = 10): Read<LiveStreamView[]> {
  const since = new Date(Date.now() - RECENTLY_ENDED_DAYS * 86_400_000).toISOString();
  const { statement, answer } = liveAccessAmongRead(
    db,
    viewer,
    `SELECT e.id FROM live_streams e
     WHERE e.status = 'ended' AND e.ended_at > ?3
       AND e.creator_id IN (SELECT ?1 UNION SELECT creator_id FROM follows WHERE follower_id = ?1 UNION SELECT creator_id FROM subscriptions WHERE fan_id = ?1)
     ORDER BY e.ended_at DESC LIMIT ?4`,
    "ls.ended_at DESC, ls.id DESC",
    since,
    limit,
  );
  return { statement, answer: (result) => seenStreams(answer(result)) };
}
