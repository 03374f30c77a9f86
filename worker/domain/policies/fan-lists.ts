import { message } from "@shared/messages";
import { AppError } from "../shared/errors";
import type { Viewer } from "./policy";

/**
 * The fan lists policy: lists, and what a list says about a fan (spending, activity, membership), are their
 * creator's alone. Members have none (403, like Dashboard → Fans); a list of another creator does not exist for
 * the viewer (404), so a list id tells nothing; a fan never reaches any of it, so never learns which lists hold
 * them. The fans a creator may put in a list are their own: followers, present or former subscribers, and those
 * who paid them (a tipper or a buyer appears in a system list, so "Add to list" must take them too).
 */

const ONLY_CREATORS_HAVE_LISTS = message("Only creators have lists of fans.");
export const NO_SUCH_LIST = message("This list does not exist.");

/** Creators only: a member, or an admin without a creator's account, has no lists. */
export function requireListKeeper(viewer: Viewer): Viewer {
  if (viewer.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_HAVE_LISTS);
  return viewer;
}

/** The custom list `id` if creator ?1 owns it: one probe of its primary key, ownership inside the query. */
export const OWNED_LIST_SQL = "SELECT id, name FROM fan_lists WHERE id = ?2 AND creator_id = ?1";

/**
 * Member `u` is creator ?1's fan: follows them, holds or held a subscription (a trial or a gift included), or paid
 * them: the rows every system list is made of. One probe of an index each.
 */
export const isFanOfSql = (u: string) =>
  `(EXISTS (SELECT 1 FROM follows fo WHERE fo.follower_id = ${u}.id AND fo.creator_id = ?1)
    OR EXISTS (SELECT 1 FROM subscriptions sx WHERE sx.fan_id = ${u}.id AND sx.creator_id = ?1)
    OR EXISTS (SELECT 1 FROM payments px WHERE px.creator_id = ?1 AND px.user_id = ${u}.id AND px.status = 'succeeded'))`;
