import { env } from "cloudflare:test";
import { findUserById } from "../../worker/domain/accounts/users";
import { payFromWallet } from "../../worker/domain/money/payments";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { clientKey } from "../../worker/domain/money/rules";
import { createFan, fundWallet, newKey } from "./money-fixtures";

/** Seeds for the earnings and withdrawal tests: real wallet payments (payFromWallet), then their earnings moved in time. */

export const FEE_PERCENT = 20;

/** A fan pays the creator `grossCents` for `kind` from a freshly funded wallet; returns the earning's id. */
export async function earn(
  creatorId: number,
  grossCents: number,
  kind: "subscription" | "tip" | "post" | "message" = "tip",
): Promise<number> {
  const fan = await createFan();
  await fundWallet(fan.user.userId, grossCents);
  const payer = (await findUserById(env.DB, fan.user.userId))!;
  const { payment } = await payFromWallet(env.DB, {
    payer,
    creatorId,
    kind,
    amountCents: grossCents,
    idempotencyKey: clientKey(newKey()),
    feePercent: FEE_PERCENT,
  });
  const row = await env.DB.prepare("SELECT id FROM earnings WHERE payment_id = ?")
    .bind(payment.id)
    .first<{ id: number }>();
  return row!.id;
}

/** Moves an unreleased earning's dates, as if it had been made `daysAgo` days ago and frees up at `releaseAt`. */
export const backdate = (earningId: number, createdAt: string, releaseAt?: string) =>
  env.DB.prepare("UPDATE earnings SET created_at = ?, release_at = COALESCE(?, release_at) WHERE id = ?")
    .bind(createdAt, releaseAt ?? null, earningId)
    .run();

/** Gives the creator `netCents` of available earnings: a tip of the matching gross, released by the cron job. */
export async function makeAvailable(creatorId: number, netCents: number): Promise<void> {
  const gross = Math.round((netCents * 100) / (100 - FEE_PERCENT));
  const id = await earn(creatorId, gross);
  await env.DB.prepare("UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(id).run();
  await releaseDueEarnings(env);
}
