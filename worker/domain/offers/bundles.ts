import type { BundlesInput } from "@shared/contracts/offer-bodies";
import type { BundleView } from "@shared/contracts/offers";
import type { BundleMonths } from "@shared/contracts/offer-constants";
import { bundlePriceCents } from "@shared/offer-prices";
import { message } from "@shared/messages";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";

export interface BundleRow {
  months: BundleMonths;
  discount_percent: number;
  /** The monthly plan's price today. */
  monthly_cents: number;
}

const BUNDLES_NEED_MONTHLY = message("Bundles need a paid monthly plan: set the monthly price first.");

/** The creator's bundles, with the monthly price they are of; none while the monthly plan is absent or free. */
export const bundlesStatement = (db: D1Database, creatorId: number) =>
  db
    .prepare(
      `SELECT b.months, b.discount_percent, p.price_cents AS monthly_cents FROM subscription_bundles b
       JOIN subscription_plans p ON p.creator_id = b.creator_id AND p.period = 'month' AND p.price_cents > 0
       WHERE b.creator_id = ? ORDER BY b.months`,
    )
    .bind(creatorId);

export const presentBundles = (rows: BundleRow[]): BundleView[] =>
  rows.map((row) => ({
    months: row.months,
    discountPercent: row.discount_percent,
    priceCents: bundlePriceCents(row.monthly_cents, row.discount_percent, row.months),
  }));

/** The creator's bundles with their totals, shortest first. */
async function listBundles(db: D1Database, creatorId: number): Promise<BundleView[]> {
  const { results } = await bundlesStatement(db, creatorId).all<BundleRow>();
  return presentBundles(results);
}

/** Replaces the creator's bundles (a length left out is withdrawn). Needs a paid monthly plan. */
export async function setBundles(
  db: D1Database,
  user: { id: number; role: string },
  input: BundlesInput,
): Promise<BundleView[]> {
  if (user.role !== "creator") throw new AppError("forbidden", message("Only creators can offer subscriptions."));
  if (input.bundles.length > 0) {
    const monthly = await db
      .prepare("SELECT price_cents FROM subscription_plans WHERE creator_id = ? AND period = 'month'")
      .bind(user.id)
      .first<number>("price_cents");
    if (!monthly) throw fieldError("bundles", BUNDLES_NEED_MONTHLY);
  }
  const now = isoNow();
  await db.batch([
    db
      .prepare(
        "DELETE FROM subscription_bundles WHERE creator_id = ? AND months NOT IN (SELECT value FROM json_each(?))",
      )
      .bind(user.id, JSON.stringify(input.bundles.map((bundle) => bundle.months))),
    ...input.bundles.map((bundle) =>
      db
        .prepare(
          `INSERT INTO subscription_bundles (creator_id, months, discount_percent, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (creator_id, months) DO UPDATE SET discount_percent = excluded.discount_percent, updated_at = excluded.updated_at`,
        )
        .bind(user.id, bundle.months, bundle.discountPercent, now),
    ),
  ]);
  return listBundles(db, user.id);
}
