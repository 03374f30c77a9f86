import { publicMediaUrl, type UserRow } from "../accounts/users";
import { blockedEitherWaySql, followsSql, profilePermissionsOf } from "../policies/members";
import type { PostRow } from "../posts/present-posts";
import { isoNow } from "../shared/time";
import { allRows, firstRow, readOne, type Read } from "../shared/reads";
import { plansStatement, presentPlans, type PlanRow } from "../subscriptions/plans";
import { bundlesStatement, presentBundles, type BundleRow } from "../offers/bundles";
import { presentPromotionOffer, promotionStatement, type OfferRow } from "../offers/fan-offers";
import {
  liveSubscriptionStatement,
  presentSubscription,
  type SubscriptionRow,
} from "../subscriptions/present-subscription";
import { findVisibleUserStatement, guessedProfile, noteProfile } from "./find-member";
import { presentProfilePage, profilePostsStatement } from "./list-profile-posts";
import type { Profile } from "@shared/contracts/profiles";
export { type Profile };

interface FactsRow {
  post_count: number;
  like_count: number;
  media_count: number;
  following: number;
  blocked: number;
}

/** The reads of a profile that need its user's id, in the order presentProfile takes their answers. */
const profileReads = (db: D1Database, creatorId: number, viewerId: number | null) =>
  [
    firstRow<FactsRow>(
      db
        .prepare(
          `SELECT totals.post_count, totals.like_count,
             (SELECT COUNT(*) FROM posts p JOIN post_media pm ON pm.post_id = p.id JOIN media m ON m.id = pm.media_id
              WHERE p.user_id = ?1 AND p.status = 'published' AND m.status = 'ready') AS media_count,
             ${followsSql("?2", "?1")} AS following,
             ${blockedEitherWaySql("?1", "?2")} AS blocked
           FROM (SELECT COUNT(*) AS post_count, COALESCE(SUM(like_count), 0) AS like_count FROM posts WHERE user_id = ?1 AND status = 'published') AS totals`,
        )
        .bind(creatorId, viewerId),
    ),
    allRows<PostRow>(profilePostsStatement(db, creatorId, viewerId, "posts", null)),
    allRows<PlanRow>(plansStatement(db, creatorId)),
    allRows<SubscriptionRow>(liveSubscriptionStatement(db, viewerId, creatorId)),
    allRows<BundleRow>(bundlesStatement(db, creatorId)),
    firstRow<OfferRow>(promotionStatement(db, creatorId, viewerId)),
  ] as const;

type ProfileRows = [FactsRow | null, PostRow[], PlanRow[], SubscriptionRow[], BundleRow[], OfferRow | null];
const PROFILE_READ_COUNT: ProfileRows["length"] = 6;

/** Who a username names, as far as the reads that need their id are concerned. */
export interface ProfileKey {
  id: number;
  isCreator: boolean;
}

/**
 * /{username} as `viewerId` (null: a visitor) may see it, with the first page of posts, and the answers of the
 * reads `alongside` gives for the same user (a page's other reads), sent in the same batch as the profile's own.
 * Unknown and suspended users are null (a 404). One round trip when this isolate has looked the username up before
 * (the reads go in one batch with the user's own, on the guess of find-member.ts, and count only if the user read
 * in that batch is still the one guessed, creator or not as guessed), else two: the user, then the reads.
 */
export async function getProfileWith(
  db: D1Database,
  username: string,
  viewerId: number | null,
  alongside: (user: ProfileKey) => readonly Read<unknown>[],
): Promise<{ profile: Profile; alongside: unknown[] } | null> {
  const readsFor = (key: ProfileKey) => [...profileReads(db, key.id, viewerId), ...alongside(key)];
  const userRead = firstRow<UserRow>(findVisibleUserStatement(db, username, viewerId));
  const guess = guessedProfile(username);
  const guessed = guess ? readsFor(guess) : null;
  let user: UserRow | null;
  let answers: unknown[] | null = null;
  if (guessed) {
    const [userResult, ...results] = await db.batch([userRead.statement, ...guessed.map((read) => read.statement)]);
    user = userRead.answer(userResult!);
    // A wrong guess's answers are never used.
    if (user && guess!.id === user.id && guess!.isCreator === (user.role === "creator"))
      answers = guessed.map((read, index) => read.answer(results[index]!));
  } else {
    user = await readOne(userRead);
  }
  noteProfile(username, user);
  if (!user) return null;
  if (!answers) {
    const reads = readsFor({ id: user.id, isCreator: user.role === "creator" });
    const results = await db.batch(reads.map((read) => read.statement));
    answers = reads.map((read, index) => read.answer(results[index]!));
  }
  const own = PROFILE_READ_COUNT;
  const rows = answers.slice(0, own) as ProfileRows;
  return { profile: await presentProfile(db, user, rows, viewerId), alongside: answers.slice(own) };
}

/** /{username} as `viewerId` may see it (getProfileWith, nothing alongside). */
export async function getProfile(db: D1Database, username: string, viewerId: number | null): Promise<Profile | null> {
  return (await getProfileWith(db, username, viewerId, () => []))?.profile ?? null;
}

async function presentProfile(
  db: D1Database,
  user: UserRow,
  rows: ProfileRows,
  viewerId: number | null,
): Promise<Profile> {
  const [facts, postRows, planRows, subscriptionRows, bundleRows, promotionRow] = rows;
  // One row always: the totals of an aggregate.
  const fact = facts!;
  const isOwn = viewerId === user.id;
  const available = fact.blocked === 0;
  const header = {
    userId: user.id,
    username: user.username,
    name: user.name,
    avatarUrl: publicMediaUrl(user.avatar_key),
    isCreator: user.role === "creator",
    isOwn,
    available,
    viewer: profilePermissionsOf({ id: user.id, isCreator: user.role === "creator" }, viewerId, !available),
  };
  if (!available) {
    const nothing = {
      bio: "",
      location: "",
      website: "",
      coverUrl: "",
      postCount: 0,
      mediaCount: 0,
      likeCount: 0,
      followerCount: null,
    };
    return {
      ...header,
      ...nothing,
      following: false,
      subscription: null,
      plans: [],
      bundles: [],
      promotion: null,
      messagePriceCents: 0,
      posts: [],
      nextCursor: null,
    };
  }
  const page = await presentProfilePage(db, postRows, viewerId);
  // A subscription past its end that the cron job has not expired yet no longer counts.
  const subscription = subscriptionRows.find((row) => row.current_period_end > isoNow());
  return {
    ...header,
    bio: user.bio,
    location: user.location,
    website: user.website,
    coverUrl: publicMediaUrl(user.cover_key),
    postCount: fact.post_count,
    mediaCount: fact.media_count,
    likeCount: fact.like_count,
    followerCount: isOwn ? user.follower_count : null,
    following: fact.following === 1,
    subscription: subscription ? presentSubscription(subscription) : null,
    plans: user.role === "creator" ? presentPlans(planRows) : [],
    bundles: user.role === "creator" ? presentBundles(bundleRows) : [],
    // The owner sees no promotion of their own on the button; everyone else the one they may claim.
    promotion: user.role === "creator" && !isOwn && promotionRow ? presentPromotionOffer(promotionRow) : null,
    messagePriceCents: user.role === "creator" ? user.message_price_cents : 0,
    ...page,
  };
}
