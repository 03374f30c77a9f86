import type { PromotionInput, RetentionInput, TrialLinkInput } from "@shared/contracts/offer-bodies";
import { MAX_OFFER_DAYS } from "@shared/contracts/offer-constants";
import type { CreatorOffers, PromotionView, RetentionSettingView, TrialLinkView } from "@shared/contracts/offers";
import { message } from "@shared/messages";
import { AppError, fieldError } from "../shared/errors";
import { DAY, isoNow } from "../shared/time";
import type { OfferRow } from "./fan-offers";

type Creator = { id: number; role: string };

const ONLY_CREATORS = message("Only creators can make offers.");
const END_IN_FUTURE = message("The end date must be in the future, within a year.");
const ONE_PER_AUDIENCE = message("A promotion for these fans is already running: end it first.");
const CODE_TAKEN = message("You already have a link with this code.");
const NOT_YOUR_OFFER = message("This offer does not exist.");
const NEEDS_PAID_PLAN = message("Offers need a paid plan: set a price first.");

interface FiguredRow extends OfferRow {
  still_subscribed: number;
  revenue_cents: number;
}

/**
 * Each offer of the creator with its figures: the claims (kept on the offer), the fans who claimed it and are still
 * subscribed, and what the claimed subscriptions have paid since their claim (the payments of the ledger's batches).
 */
const offersStatement = (db: D1Database, creatorId: number) =>
  db
    .prepare(
      `SELECT o.*,
         (SELECT COUNT(*) FROM offer_claims c JOIN subscriptions s ON s.id = c.subscription_id
          WHERE c.offer_id = o.id AND s.status = 'active') AS still_subscribed,
         (SELECT COALESCE(SUM(p.amount_cents), 0) FROM offer_claims c JOIN payments p
            ON p.subscription_id = c.subscription_id AND p.user_id = c.fan_id AND p.created_at >= c.claimed_at
          WHERE c.offer_id = o.id AND p.status = 'succeeded') AS revenue_cents
       FROM offers o WHERE o.creator_id = ? AND (o.kind <> 'retention' OR o.ended_at IS NULL)
       ORDER BY o.id DESC LIMIT 200`,
    )
    .bind(creatorId);

const runningAt = (row: OfferRow, now: string) =>
  row.ended_at === null &&
  (row.ends_at === null || row.ends_at > now) &&
  (row.claim_limit === null || row.claims < row.claim_limit);

const figures = (row: FiguredRow) => ({
  claims: row.claims,
  stillSubscribed: row.still_subscribed,
  revenueCents: row.revenue_cents,
});

function presentOffers(rows: FiguredRow[], now: string): CreatorOffers {
  const promotions: PromotionView[] = [];
  const trialLinks: TrialLinkView[] = [];
  let retention: RetentionSettingView | null = null;
  for (const row of rows) {
    const running = runningAt(row, now);
    if (row.kind === "promotion") {
      promotions.push({
        ...figures(row),
        id: row.id,
        percentOff: row.percent_off,
        trialDays: row.trial_days,
        audience: row.audience!,
        periods: row.periods,
        claimLimit: row.claim_limit,
        endsAt: row.ends_at!,
        endedAt: row.ended_at,
        running,
        createdAt: row.created_at,
      });
    } else if (row.kind === "trial") {
      trialLinks.push({
        ...figures(row),
        id: row.id,
        code: row.code!,
        days: row.trial_days!,
        claimLimit: row.claim_limit,
        endsAt: row.ends_at!,
        endedAt: row.ended_at,
        running,
        createdAt: row.created_at,
      });
    } else {
      retention = { ...figures(row), id: row.id, percentOff: row.percent_off, periods: row.periods };
    }
  }
  const runningFirst = <T extends { running: boolean }>(list: T[]) =>
    list.sort((a, b) => Number(b.running) - Number(a.running));
  return { promotions: runningFirst(promotions), trialLinks: runningFirst(trialLinks), retention };
}

/** Dashboard → Promotions: every promotion and trial link, running first, with their figures; the retention offer. */
export async function getCreatorOffers(db: D1Database, creatorId: number): Promise<CreatorOffers> {
  const { results } = await offersStatement(db, creatorId).all<FiguredRow>();
  return presentOffers(results, isoNow());
}

function requireCreator(user: Creator) {
  if (user.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS);
}

function checkEnd(endsAt: string, now: string): string {
  const end = new Date(endsAt).toISOString();
  if (end <= now || Date.parse(end) > Date.parse(now) + MAX_OFFER_DAYS * DAY) throw fieldError("endsAt", END_IN_FUTURE);
  return end;
}

async function requirePaidPlan(db: D1Database, creatorId: number) {
  const paid = await db
    .prepare("SELECT 1 FROM subscription_plans WHERE creator_id = ? AND price_cents > 0 LIMIT 1")
    .bind(creatorId)
    .first();
  if (!paid) throw new AppError("validation", NEEDS_PAID_PLAN);
}

/**
 * Starts a promotion. At most one runs per audience ("both" overlaps the two others): the check reads the running
 * ones; a creator racing their own two forms is the only way past it, and then both simply run.
 */
export async function createPromotion(db: D1Database, user: Creator, input: PromotionInput): Promise<CreatorOffers> {
  requireCreator(user);
  const now = isoNow();
  const endsAt = checkEnd(input.endsAt, now);
  await requirePaidPlan(db, user.id);
  const overlapping = await db
    .prepare(
      `SELECT 1 FROM offers WHERE creator_id = ?1 AND kind = 'promotion' AND ended_at IS NULL AND ends_at > ?2
         AND (claim_limit IS NULL OR claims < claim_limit)
         AND (?3 = 'both' OR audience IN ('both', ?3)) LIMIT 1`,
    )
    .bind(user.id, now, input.audience)
    .first();
  if (overlapping) throw new AppError("conflict", ONE_PER_AUDIENCE);
  const free = input.percentOff === 100;
  await db
    .prepare(
      `INSERT INTO offers (creator_id, kind, percent_off, trial_days, audience, periods, claim_limit, ends_at, created_at)
       VALUES (?, 'promotion', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      user.id,
      input.percentOff,
      free ? input.trialDays! : null,
      input.audience,
      free ? 1 : input.periods,
      input.claimLimit ?? null,
      endsAt,
      now,
    )
    .run();
  return getCreatorOffers(db, user.id);
}

/** A code nobody types by mistake: 10 characters of [a-z0-9]. */
function newTrialCode(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.getRandomValues(new Uint8Array(10))].map((byte) => alphabet[byte % alphabet.length]).join("");
}

/** Makes a free-trial link (a code made up when none is given). */
export async function createTrialLink(db: D1Database, user: Creator, input: TrialLinkInput): Promise<CreatorOffers> {
  requireCreator(user);
  const now = isoNow();
  const endsAt = checkEnd(input.endsAt, now);
  await requirePaidPlan(db, user.id);
  try {
    await db
      .prepare(
        `INSERT INTO offers (creator_id, kind, percent_off, trial_days, code, claim_limit, ends_at, created_at)
         VALUES (?, 'trial', 100, ?, ?, ?, ?, ?)`,
      )
      .bind(user.id, input.days, input.code ?? newTrialCode(), input.claimLimit ?? null, endsAt, now)
      .run();
  } catch (error) {
    if (String(error).includes("offers.creator_id, offers.code")) throw fieldError("code", CODE_TAKEN);
    throw error;
  }
  return getCreatorOffers(db, user.id);
}

/** Ends a promotion or trial link now (early); ending it again changes nothing. */
export async function endOffer(db: D1Database, user: Creator, offerId: number): Promise<CreatorOffers> {
  requireCreator(user);
  const [, found] = await db.batch([
    db
      .prepare(
        "UPDATE offers SET ended_at = ? WHERE id = ? AND creator_id = ? AND kind <> 'retention' AND ended_at IS NULL",
      )
      .bind(isoNow(), offerId, user.id),
    db.prepare("SELECT 1 FROM offers WHERE id = ? AND creator_id = ? AND kind <> 'retention'").bind(offerId, user.id),
  ]);
  if (found!.results.length === 0) throw new AppError("not_found", NOT_YOUR_OFFER);
  return getCreatorOffers(db, user.id);
}

/**
 * Turns the retention offer on (with these terms) or off. New terms are a new offer (the old one ends), so each
 * version's figures stay its own and a fan who took the old one may be offered the new one.
 */
export async function setRetentionOffer(db: D1Database, user: Creator, input: RetentionInput): Promise<CreatorOffers> {
  requireCreator(user);
  const now = isoNow();
  const current = await db
    .prepare("SELECT * FROM offers WHERE creator_id = ? AND kind = 'retention' AND ended_at IS NULL")
    .bind(user.id)
    .first<OfferRow>();
  const same = input.active && current?.percent_off === input.percentOff && current.periods === input.periods;
  if (!same) {
    await db.batch([
      db
        .prepare("UPDATE offers SET ended_at = ? WHERE creator_id = ? AND kind = 'retention' AND ended_at IS NULL")
        .bind(now, user.id),
      ...(input.active
        ? [
            db
              .prepare(
                "INSERT INTO offers (creator_id, kind, percent_off, periods, created_at) VALUES (?, 'retention', ?, ?, ?)",
              )
              .bind(user.id, input.percentOff, input.periods, now),
          ]
        : []),
    ]);
  }
  return getCreatorOffers(db, user.id);
}
