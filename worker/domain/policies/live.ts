import type { LiveAudience, LiveEndReason, LiveStatus, LiveTransportKind } from "@shared/contracts/live-limits";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import { blockedEitherWaySql, followsSql, geoHiddenSql, subscribesSql } from "./members";
import type { Viewer } from "./policy";

/**
 * The live streams policy (docs/decisions/live-streams.md):
 *
 * - "see" (the stream in lists, its page and entry step): its audience admits the viewer: everyone (any member),
 *   followers (following or subscribed), subscribers (a live subscription); the creator always. A stream whose
 *   audience shuts the viewer out is not listed and is "not found", like a block either way, a suspended creator or
 *   one who geo-blocks the viewer's place.
 * - "watch" (the socket: video signalling, chat, and the media URLs; tips): "see", the stream is live, and its
 *   entry price is paid (a 'live' payment of this viewer for this stream).
 */
export const LIVE_NOT_FOUND = message("This live stream does not exist.");
export const LIVE_ENDED = message("This stream has ended");
const LIVE_ENTRY_NEEDED = message("Pay the entry price to watch this stream.");

/**
 * The viewer's (`viewer`, a column or ?1) facts about the stream aliased `ls` and its creator `o`; ?2 is now. Built
 * per request: the creator is hidden when suspended or geo-blocking the viewer's place.
 */
export const liveFactsSql = (viewer: string) => `
  ${followsSql(viewer, "ls.creator_id")} AS l_follows,
  ${subscribesSql(viewer, "ls.creator_id")} AS l_subscribes,
  ${blockedEitherWaySql(viewer, "ls.creator_id")} AS l_blocked,
  EXISTS (SELECT 1 FROM payments pe WHERE pe.live_stream_id = ls.id AND pe.kind = 'live' AND pe.user_id = ${viewer} AND pe.status = 'succeeded') AS l_entered,
  (o.suspended_at IS NOT NULL OR ${geoHiddenSql("o", viewer)}) AS l_creator_hidden`;

export interface LiveFactsRow {
  l_follows: number;
  l_subscribes: number;
  l_blocked: number;
  l_entered: number;
  l_creator_hidden: number;
}

/** A stream and its creator as the policy and the presenters read them (aliases `ls`, `o`). */
export const LIVE_STREAM_COLUMNS = `ls.id, ls.creator_id, ls.title, ls.audience, ls.price_cents, ls.goal_cents, ls.goal_title, ls.transport,
  ls.media_input_id, ls.publish_url, ls.play_url, ls.status,
  ls.started_at, ls.ended_at, ls.end_reason, ls.viewers, ls.peak_viewers, ls.tips_cents,
  o.username AS creator_username, o.name AS creator_name, o.avatar_key AS creator_avatar_key`;

export interface LiveStreamRow {
  id: number;
  creator_id: number;
  title: string;
  audience: LiveAudience;
  price_cents: number;
  goal_cents: number | null;
  goal_title: string | null;
  transport: LiveTransportKind;
  media_input_id: string | null;
  /** whip: the creator's publish address (secret) and the viewers' play address; never in a view. */
  publish_url: string | null;
  play_url: string | null;
  status: LiveStatus;
  started_at: string;
  ended_at: string | null;
  end_reason: LiveEndReason | null;
  viewers: number;
  peak_viewers: number;
  tips_cents: number;
  creator_username: string;
  creator_name: string;
  creator_avatar_key: string | null;
}

export interface LiveFacts {
  isCreator: boolean;
  follows: boolean;
  subscribes: boolean;
  blocked: boolean;
  entered: boolean;
  /** Suspended, or geo-blocking the viewer's place. */
  creatorHidden: boolean;
}

export const liveFactsOf = (viewerId: number, stream: { creator_id: number }, row: LiveFactsRow): LiveFacts => ({
  isCreator: stream.creator_id === viewerId,
  follows: row.l_follows === 1,
  subscribes: row.l_subscribes === 1,
  blocked: row.l_blocked === 1,
  entered: row.l_entered === 1,
  creatorHidden: row.l_creator_hidden === 1,
});

/** Whether the audience admits the viewer (the creator always). The pure rule of "see". */
export function audienceAdmits(audience: LiveAudience, facts: LiveFacts): boolean {
  if (facts.isCreator) return true;
  if (facts.blocked || facts.creatorHidden) return false;
  switch (audience) {
    case "everyone":
      return true;
    case "followers":
      return facts.follows || facts.subscribes;
    case "subscribers":
      return facts.subscribes;
  }
}

/** The pure rule of "watch": why the viewer may not watch (a refusal to throw), or null when they may. */
function watchRefusalOf(
  stream: { audience: LiveAudience; status: LiveStatus; price_cents: number },
  facts: LiveFacts,
): AppError | null {
  if (!audienceAdmits(stream.audience, facts)) return new AppError("not_found", LIVE_NOT_FOUND);
  if (stream.status !== "live") return new AppError("conflict", LIVE_ENDED);
  if (facts.isCreator || stream.price_cents === 0 || facts.entered) return null;
  return new AppError("payment_required", LIVE_ENTRY_NEEDED);
}

export type LiveAction = "see" | "watch";

export interface LiveAccess {
  stream: LiveStreamRow;
  facts: LiveFacts;
}

/** The streams among `ids` with the viewer's facts: one statement. */
export async function findLiveAccess(
  db: D1Database,
  viewer: Viewer,
  ids: readonly number[],
): Promise<Map<number, LiveAccess>> {
  const found = await findLiveAccessAmong(
    db,
    viewer,
    "SELECT value AS id FROM json_each(?3)",
    "ls.id",
    JSON.stringify(ids),
  );
  return new Map(found.map((access) => [access.stream.id, access]));
}

/**
 * The streams a query picks, with the viewer's facts, in `order` (over `ls`): one statement. `picks` is a SELECT
 * of stream ids (`id`), its parameters from ?3 on (`params`); it runs first, on its own, so the facts are worked
 * out for the picked streams only (a subquery with a LIMIT, joined, is not merged into the outer query). Both
 * strings are the callers' constants, never input.
 */
const findLiveAccessAmong = (
  db: D1Database,
  viewer: Viewer,
  picks: string,
  order: string,
  ...params: unknown[]
): Promise<LiveAccess[]> => readOne(liveAccessAmongRead(db, viewer, picks, order, ...params));

/** findLiveAccessAmong as a read, for a page or a command that sends it in one batch with its other reads. */
export function liveAccessAmongRead(
  db: D1Database,
  viewer: Viewer,
  picks: string,
  order: string,
  ...params: unknown[]
): Read<LiveAccess[]> {
  const statement = db
    .prepare(
      `SELECT ${LIVE_STREAM_COLUMNS}, ${liveFactsSql("?1")}
       FROM (${picks}) picked JOIN live_streams ls ON ls.id = picked.id JOIN users o ON o.id = ls.creator_id
       ORDER BY ${order}`,
    )
    .bind(viewer.id, isoNow(), ...params);
  return {
    statement,
    answer: (result) =>
      (result.results as (LiveStreamRow & LiveFactsRow)[]).map((row) => ({
        stream: row,
        facts: liveFactsOf(viewer.id, row, row),
      })),
  };
}

/**
 * The single-stream form for commands: a stream the viewer may not see is "not found" (nothing said of what
 * exists); "watch" also needs it live (409) and its entry paid (402).
 */
export const requireLiveAccess = (
  db: D1Database,
  viewer: Viewer,
  streamId: number,
  action: LiveAction,
): Promise<LiveAccess> => readOne(liveAccessCheck(db, viewer, streamId, action));

/** requireLiveAccess as a read, for a command that sends it in one batch with its other reads. */
export function liveAccessCheck(
  db: D1Database,
  viewer: Viewer,
  streamId: number,
  action: LiveAction,
): Read<LiveAccess> {
  const { statement, answer } = liveAccessAmongRead(
    db,
    viewer,
    "SELECT value AS id FROM json_each(?3)",
    "ls.id",
    JSON.stringify([streamId]),
  );
  return {
    statement,
    answer(result) {
      const access = answer(result)[0];
      if (!access || !audienceAdmits(access.stream.audience, access.facts))
        throw new AppError("not_found", LIVE_NOT_FOUND);
      if (action === "watch") {
        const refusal = watchRefusalOf(access.stream, access.facts);
        if (refusal) throw refusal;
      }
      return access;
    },
  };
}

/** Viewers whose access a live room checks again in one statement. */
const RECHECKED_PER_STATEMENT = 500;

/**
 * Of the people watching a live stream, those who may no longer watch it (the LiveRoom asks on its alarm): an
 * audience that no longer admits them (a subscription that ended, a follow undone, a block either way). A stream
 * that is no longer live shuts nobody out here: its end closes every socket. One batch, a statement per
 * RECHECKED_PER_STATEMENT viewers.
 */
export async function viewersShutOut(
  db: D1Database,
  streamId: number,
  viewerIds: readonly number[],
): Promise<number[]> {
  const chunks: number[][] = [];
  for (let start = 0; start < viewerIds.length; start += RECHECKED_PER_STATEMENT)
    chunks.push(viewerIds.slice(start, start + RECHECKED_PER_STATEMENT));
  if (chunks.length === 0) return [];
  const statement = db.prepare(
    `SELECT v.value AS viewer_id, ls.creator_id, ls.audience, ls.status, ls.price_cents, ${liveFactsSql("v.value")}
     FROM json_each(?3) v, live_streams ls JOIN users o ON o.id = ls.creator_id
     WHERE ls.id = ?1`,
  );
  type Row = LiveFactsRow &
    Pick<LiveStreamRow, "creator_id" | "audience" | "status" | "price_cents"> & { viewer_id: number };
  const answers = await db.batch<Row>(chunks.map((ids) => statement.bind(streamId, isoNow(), JSON.stringify(ids))));
  return answers
    .flatMap((answer) => answer.results)
    .filter((row) => row.status === "live" && watchRefusalOf(row, liveFactsOf(row.viewer_id, row, row)) !== null)
    .map((row) => row.viewer_id);
}

/** What the viewer may do with a stream, carried by its answers (`viewer`). */
export const livePermissionsOf = (stream: LiveStreamRow, facts: LiveFacts) => ({
  isCreator: facts.isCreator,
  hasEntry: facts.isCreator || stream.price_cents === 0 || facts.entered,
  canWatch: watchRefusalOf(stream, facts) === null,
  follows: facts.follows,
  subscribes: facts.subscribes,
});

/** The LiveRoom of a stream: named after its id, which the Worker reads from D1 after the checks above. */
export const liveRoomName = (streamId: number) => `live.${streamId}`;
