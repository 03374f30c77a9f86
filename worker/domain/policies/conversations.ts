import type { Role } from "../accounts/users";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import { blockedEitherWaySql, followsSql, subscribesSql } from "./members";
import type { Viewer } from "./policy";

/**
 * The conversations policy. A conversation exists only for its two members: for anyone else every endpoint and
 * socket answers "not found". Who may write to whom (like OnlyFans; docs/decisions/who-may-message-whom.md):
 *
 * - a fan writes to a creator they follow or subscribe to;
 * - a creator writes to their fans (people who follow or subscribe to them);
 * - any two members write to each other once both follow each other;
 * - a block, either way, or a suspended account: nobody writes (the history stays readable to its members).
 *
 * The rule is checked on every send, so unfollowing or blocking stops new messages at once.
 */
export const CONVERSATION_NOT_FOUND = message("This conversation does not exist.");
const CANNOT_MESSAGE = message(
  "You can message creators you follow or subscribe to, your own fans, and people who follow you back.",
);
export const MESSAGING_BLOCKED = message("This profile is not available.");

/** What the viewer (?1) and the member `o` are to each other; ?2 is now. Columns of the statement reading `o`. */
export const PAIR_FACTS_SQL = `
  ${followsSql("?1", "o.id")} AS p_follows,
  ${followsSql("o.id", "?1")} AS p_followed_by,
  ${subscribesSql("?1", "o.id")} AS p_subscribes,
  ${subscribesSql("o.id", "?1")} AS p_subscribed_by,
  ${blockedEitherWaySql("?1", "o.id")} AS p_blocked,
  o.role AS p_other_role, o.suspended_at AS p_other_suspended_at`;

export interface PairFactsRow {
  p_follows: number;
  p_followed_by: number;
  p_subscribes: number;
  p_subscribed_by: number;
  p_blocked: number;
  p_other_role: Role;
  p_other_suspended_at: string | null;
}

export interface PairFacts {
  viewerRole: Role;
  otherRole: Role;
  follows: boolean;
  followedBy: boolean;
  subscribes: boolean;
  subscribedBy: boolean;
  blocked: boolean;
  otherSuspended: boolean;
}

export const pairFactsOf = (viewerRole: Role, row: PairFactsRow): PairFacts => ({
  viewerRole,
  otherRole: row.p_other_role,
  follows: row.p_follows === 1,
  followedBy: row.p_followed_by === 1,
  subscribes: row.p_subscribes === 1,
  subscribedBy: row.p_subscribed_by === 1,
  blocked: row.p_blocked === 1,
  otherSuspended: row.p_other_suspended_at !== null,
});

/** Why the viewer may not write (the message to show), or null when they may. The pure rule above. */
export function writeRefusalOf(facts: PairFacts): string | null {
  if (facts.blocked || facts.otherSuspended) return MESSAGING_BLOCKED;
  if (facts.otherRole === "creator" && (facts.follows || facts.subscribes)) return null;
  if (facts.viewerRole === "creator" && (facts.followedBy || facts.subscribedBy)) return null;
  if (facts.follows && facts.followedBy) return null;
  return CANNOT_MESSAGE;
}

/** What the viewer may do in a conversation, carried by its answers (`viewer`). */
export interface ConversationPermissions {
  canWrite: boolean;
  /** Creators may put a price on a message with media. */
  canSetPrice: boolean;
}

export const conversationPermissionsOf = (facts: PairFacts): ConversationPermissions => ({
  canWrite: writeRefusalOf(facts) === null,
  canSetPrice: facts.viewerRole === "creator" && writeRefusalOf(facts) === null,
});

export interface ConversationAccess {
  id: number;
  userLow: number;
  userHigh: number;
  otherId: number;
  /** The other member's per-message price (what a fan pays to write to a creator). */
  otherMessagePriceCents: number;
  facts: PairFacts;
}

interface ConversationAccessRow extends PairFactsRow {
  id: number;
  user_low: number;
  user_high: number;
  other_id: number;
  other_message_price_cents: number;
}

/** The conversations among `ids` that `viewer` is a member of, with the pair's facts: one statement. */
function conversationAccessRead(
  db: D1Database,
  viewer: Viewer,
  ids: readonly number[],
): Read<Map<number, ConversationAccess>> {
  const statement = db
    .prepare(
      `SELECT c.id, c.user_low, c.user_high, o.id AS other_id, o.message_price_cents AS other_message_price_cents, ${PAIR_FACTS_SQL}
       FROM conversations c
       JOIN conversation_members me ON me.conversation_id = c.id AND me.user_id = ?1
       JOIN users o ON o.id = CASE WHEN c.user_low = ?1 THEN c.user_high ELSE c.user_low END
       WHERE c.id IN (SELECT value FROM json_each(?3))`,
    )
    .bind(viewer.id, isoNow(), JSON.stringify(ids));
  return {
    statement,
    answer: (result) =>
      new Map(
        (result.results as ConversationAccessRow[]).map((row) => [
          row.id,
          {
            id: row.id,
            userLow: row.user_low,
            userHigh: row.user_high,
            otherId: row.other_id,
            otherMessagePriceCents: row.other_message_price_cents,
            facts: pairFactsOf(viewer.role, row),
          },
        ]),
      ),
  };
}

/** "read": the history, the socket, read marks; "write": a new message. */
export type ConversationAction = "read" | "write";

/**
 * The single-conversation form for commands: a conversation the viewer is not in is "not found"; "write" also
 * needs the rule above (403 with its reason).
 */
export const requireConversationAccess = (
  db: D1Database,
  viewer: Viewer,
  conversationId: number,
  action: ConversationAction,
): Promise<ConversationAccess> => readOne(conversationAccessCheck(db, viewer, conversationId, action));

/** requireConversationAccess as a read, for a command or a page that sends it in one batch with its other reads. */
export function conversationAccessCheck(
  db: D1Database,
  viewer: Viewer,
  conversationId: number,
  action: ConversationAction,
): Read<ConversationAccess> {
  const { statement, answer } = conversationAccessRead(db, viewer, [conversationId]);
  return {
    statement,
    answer(result) {
      const access = answer(result).get(conversationId);
      if (!access) throw new AppError("not_found", CONVERSATION_NOT_FOUND);
      if (action === "write") {
        const refusal = writeRefusalOf(access.facts);
        if (refusal) throw new AppError("forbidden", refusal);
      }
      return access;
    },
  };
}

/** The Durable Object of a conversation, named after its pair (never after anything a client sends). */
export const chatRoomName = (userLow: number, userHigh: number) => `chat.${userLow}-${userHigh}`;
