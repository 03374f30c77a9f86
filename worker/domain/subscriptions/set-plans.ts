import { z } from "zod";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import {
  listPlans,
  MAX_MESSAGE_PRICE_CENTS,
  MAX_PRICE_CENTS,
  MESSAGE_PRICE_OUT_OF_RANGE,
  MIN_PAID_PRICE_CENTS,
  PRICE_OUT_OF_RANGE,
  type PlanView,
} from "./plans";
import { PERIODS } from "./periods";

const PlanInputSchema = z.object({
  period: z.enum(PERIODS),
  priceCents: z
    .number()
    .int()
    .refine((cents) => cents === 0 || (cents >= MIN_PAID_PRICE_CENTS && cents <= MAX_PRICE_CENTS), PRICE_OUT_OF_RANGE),
});

/** Every plan the creator offers; a period left out is no longer offered. The message price is optional. */
export const SetPlansSchema = z.object({
  messagePriceCents: z
    .number()
    .int()
    .min(0, MESSAGE_PRICE_OUT_OF_RANGE)
    .max(MAX_MESSAGE_PRICE_CENTS, MESSAGE_PRICE_OUT_OF_RANGE)
    .optional(),
  plans: z
    .array(PlanInputSchema)
    .max(PERIODS.length)
    .refine(
      (plans) => new Set(plans.map((plan) => plan.period)).size === plans.length,
      message("Each period can be offered once."),
    ),
});

/**
 * Replaces the creator's plans (and sets the message price when given). Existing subscriptions keep the price
 * they were taken at (stored on them) unless the plan's new price is lower: renewals charge the lower one.
 */
export async function setPlans(
  db: D1Database,
  user: { id: number; role: string },
  input: z.output<typeof SetPlansSchema>,
): Promise<PlanView[]> {
  if (user.role !== "creator") throw new AppError("forbidden", message("Only creators can offer subscriptions."));
  const now = isoNow();
  await db.batch([
    db
      .prepare("DELETE FROM subscription_plans WHERE creator_id = ? AND period NOT IN (SELECT value FROM json_each(?))")
      .bind(user.id, JSON.stringify(input.plans.map((plan) => plan.period))),
    ...input.plans.map((plan) =>
      db
        .prepare(
          `INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (creator_id, period) DO UPDATE SET price_cents = excluded.price_cents, updated_at = excluded.updated_at`,
        )
        .bind(user.id, plan.period, plan.priceCents, now),
    ),
    ...(input.messagePriceCents === undefined
      ? []
      : [db.prepare("UPDATE users SET message_price_cents = ? WHERE id = ?").bind(input.messagePriceCents, user.id)]),
  ]);
  return listPlans(db, user.id);
}
