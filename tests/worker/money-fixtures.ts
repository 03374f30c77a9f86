import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { creditTopUp } from "../../worker/domain/money/top-ups";
import { createUser } from "./factories";
import { makeCreator } from "./timeline-fixtures";

/** Seeds and helpers for the money tests: verified members, funded wallets, the books' audit. */

const verifyEmail = (userId: number) =>
  env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(new Date().toISOString(), userId).run();

/** A member whose email is verified (paying needs it), as the API returns them after sign-up. */
export async function createFan() {
  const fan = await createUser();
  await verifyEmail(fan.user.userId);
  return fan;
}

/** A verified creator with monetization on. */
export async function createVerifiedCreator() {
  const creator = await makeCreator();
  await verifyEmail(creator.user.userId);
  return creator;
}

export const newKey = () => crypto.randomUUID();

let eventCounter = 0;

/**
 * Puts `cents` into the user's wallet the way a real top-up does: a pending sandbox payment, then the provider's
 * success event credited through creditTopUp (provider clearing → wallet).
 */
export async function fundWallet(userId: number, cents: number): Promise<number> {
  const now = new Date().toISOString();
  const payment = await env.DB.prepare(
    `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, created_at, updated_at)
     VALUES (?, 'top_up', ?, 'pending', 'sandbox', ?, 'seed', ?, ?) RETURNING id`,
  )
    .bind(userId, cents, `u:${newKey()}`, now, now)
    .first<{ id: number }>();
  const outcome = await creditTopUp(testContext(), {
    provider: "sandbox",
    eventId: `seed-${++eventCounter}-${newKey()}`,
    paymentId: payment!.id,
    amountCents: cents,
  });
  if (outcome !== "applied") throw new Error(`fundWallet: ${outcome}`);
  return payment!.id;
}
