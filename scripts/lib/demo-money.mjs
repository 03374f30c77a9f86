// Demo money for `npm start` (scripts/seed.mjs): a funded fan wallet and a creator with earnings, written with
// exactly the statements the Worker's ledger writes (worker/domain/money/ledger.ts, payments.ts, top-ups.ts), in
// one D1 batch each, so the database's own rules (balanced transfers, no negative balance) check them too.
import { randomBytes } from "node:crypto";

const ref = () => randomBytes(16).toString("hex");
const PROVIDER_CLEARING = 2;
const PLATFORM_FEES = 1;
const accountId = "(SELECT id FROM ledger_accounts WHERE user_id = ? AND kind = ?)";
const transferId = "(SELECT id FROM ledger_transfers WHERE ref = ?)";

function transfer(db, kind, at, legs) {
  const handle = ref();
  const statements = [];
  for (const leg of legs) {
    if (leg.userId)
      statements.push(
        db.prepare("INSERT OR IGNORE INTO ledger_accounts (kind, user_id) VALUES (?, ?)").bind(leg.kind, leg.userId),
      );
  }
  statements.push(
    db.prepare("INSERT INTO ledger_transfers (ref, kind, created_at) VALUES (?, ?, ?)").bind(handle, kind, at),
  );
  for (const leg of legs) {
    const account = leg.userId ? accountId : "?";
    const binds = leg.userId ? [leg.userId, leg.kind] : [leg.accountId];
    statements.push(
      db
        .prepare(
          `INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES (${transferId}, ${account}, ?)`,
        )
        .bind(handle, ...binds, leg.cents),
    );
  }
  statements.push(db.prepare("UPDATE ledger_transfers SET closed = 1 WHERE ref = ?").bind(handle));
  return { handle, statements };
}

/** A sandbox top-up that succeeded: clearing → wallet, its payment and its provider event. */
export async function seedTopUp(db, userId, cents, at) {
  const { handle, statements } = transfer(db, "top_up", at, [
    { accountId: PROVIDER_CLEARING, cents: -cents },
    { userId, kind: "wallet", cents },
  ]);
  const key = `u:seed-${ref()}`;
  await db.batch([
    ...statements,
    db
      .prepare(
        `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, transfer_id, created_at, updated_at)
         VALUES (?, 'top_up', ?, 'succeeded', 'sandbox', ?, 'seed', ${transferId}, ?, ?)`,
      )
      .bind(userId, cents, key, handle, at, at),
    db
      .prepare("INSERT INTO provider_events (provider, event_id, received_at) VALUES ('sandbox', ?, ?)")
      .bind(`seed-${handle}`, at),
  ]);
}

/**
 * A tip (or, with kind "message", a paid message) from the fan's wallet: net to the creator's pending earnings,
 * the fee to the platform.
 */
export async function seedTip(
  db,
  {
    fanId,
    creatorId,
    cents,
    feePercent,
    at,
    releaseAt,
    kind = "tip",
    note = "Love the beach series!",
    liveStreamId = null,
  },
) {
  const fee = Math.floor((cents * Math.round(feePercent * 100) + 5000) / 10_000);
  const net = cents - fee;
  const { handle, statements } = transfer(db, kind, at, [
    { userId: fanId, kind: "wallet", cents: -cents },
    { userId: creatorId, kind: "earnings_pending", cents: net },
    { accountId: PLATFORM_FEES, cents: fee },
  ]);
  const key = `u:seed-${ref()}`;
  await db.batch([
    ...statements,
    db
      .prepare(
        `INSERT INTO payments (user_id, kind, amount_cents, status, creator_id, note, live_stream_id, idempotency_key, request_hash, transfer_id, created_at, updated_at)
         VALUES (?, ?, ?, 'succeeded', ?, ?, ?, ?, 'seed', ${transferId}, ?, ?)`,
      )
      .bind(fanId, kind, cents, creatorId, note, liveStreamId, key, handle, at, at),
    db
      .prepare(
        `INSERT INTO earnings (creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at)
         VALUES (?, (SELECT id FROM payments WHERE user_id = ? AND idempotency_key = ?), ?, ?, ?, ?, ?, ?)`,
      )
      .bind(creatorId, fanId, key, kind === "live_tip" ? "live" : kind, cents, fee, net, at, releaseAt),
  ]);
}
