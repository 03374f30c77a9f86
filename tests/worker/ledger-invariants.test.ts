import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { describe, expect, it } from "vitest";
import { findUserById } from "../../worker/domain/accounts/users";
import {
  auditLedger,
  availableOf,
  balanceOf,
  balancesOf,
  newTransferRef,
  PLATFORM_FEES,
  PLATFORM_ACCOUNT_IDS,
  transferIdSql,
  transferStatements,
  walletOf,
} from "../../worker/domain/money/ledger";
import { payFromWallet } from "../../worker/domain/money/payments";
import { purchasePost } from "../../worker/domain/money/purchase-post";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { sendTip } from "../../worker/domain/money/send-tip";
import { decidePayout, requestWithdrawal } from "../../worker/domain/money/withdrawals";
import { postJson } from "./factories";
import { createAdmin } from "./moderation-support";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost } from "./timeline-fixtures";

/**
 * The invariants of the books, each shown against the real database: concurrent spending cannot overspend,
 * a replayed key moves money once, a failing batch leaves nothing, and the database itself refuses what the code
 * must never write.
 */

const ctx = () => testContext();
const userRow = async (id: number) => (await findUserById(env.DB, id))!;
const CLEAN_BOOKS = {
  unbalancedTransfers: 0,
  openTransfers: 0,
  negativeAccounts: 0,
  driftedAccounts: 0,
  totalCents: 0,
};

/** Everything money leaves behind: row counts and every balance. Equal snapshots mean nothing moved. */
async function snapshot() {
  const counts = await env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM ledger_transfers) AS transfers, (SELECT COUNT(*) FROM ledger_entries) AS entries,
            (SELECT COUNT(*) FROM payments) AS payments, (SELECT COUNT(*) FROM earnings) AS earnings,
            (SELECT COUNT(*) FROM payouts) AS payouts, (SELECT COUNT(*) FROM post_purchases) AS purchases,
            (SELECT COUNT(*) FROM notifications) AS notifications`,
  ).first();
  const { results: balances } = await env.DB.prepare("SELECT id, balance_cents FROM ledger_accounts ORDER BY id").all();
  return { counts, balances };
}

/** A creator with `cents` of available earnings, earned the real way: a fan's tips, released. */
async function creatorWithAvailable(cents: number) {
  const creator = await createVerifiedCreator();
  const fan = await createFan();
  const gross = Math.ceil(cents / 0.8);
  await fundWallet(fan.user.userId, gross);
  const fanRow = await userRow(fan.user.userId);
  for (let left = gross; left > 0; left -= 20_000) {
    await sendTip(
      ctx(),
      fanRow,
      { username: creator.user.username },
      { amountCents: Math.min(left, 20_000), idempotencyKey: newKey() },
    );
  }
  await env.DB.prepare("UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE creator_id = ?")
    .bind(creator.user.userId)
    .run();
  await releaseDueEarnings(env);
  await env.DB.prepare(
    "INSERT INTO payout_methods (user_id, kind, paypal_email, updated_at) VALUES (?, 'paypal', 'payee@example.test', ?)",
  )
    .bind(creator.user.userId, new Date().toISOString())
    .run();
  return creator;
}

describe("concurrent spending of one wallet", () => {
  it("lets exactly 10 of 200 simultaneous tips through when the wallet covers 10", { timeout: 60_000 }, async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 10 * 500);
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        postJson(
          `/users/${creator.user.username}/tips`,
          { amountCents: 500, idempotencyKey: newKey() },
          { token: fan.token },
        ),
      ),
    );
    const bodies = await Promise.all(responses.map((response) => response.json<{ message?: string }>()));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(190);
    expect(new Set(bodies.filter((_, i) => statuses[i] === 402).map((body) => body.message))).toEqual(
      new Set(["You need to fund your wallet!"]),
    );
    expect(await balancesOf(env.DB, fan.user.userId)).toEqual({ wallet: 0, pending: 0, available: 0 });
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 10 * 400, available: 0 });
    expect(await balanceOf(env.DB, PLATFORM_FEES)).toBe(10 * 100);
    const tips = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ? AND kind = 'tip'")
      .bind(fan.user.userId)
      .first<{ n: number }>();
    expect(tips!.n).toBe(10);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });
});

describe("a replayed idempotency key", () => {
  it("answers a tip's replays, sequential and concurrent, with the first payment and charges once", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 700);
    const key = newKey();
    const tip = () =>
      postJson(
        `/users/${creator.user.username}/tips`,
        { amountCents: 700, note: "thanks", idempotencyKey: key },
        { token: fan.token },
      );
    const first = await tip();
    expect(first.status).toBe(200);
    const { payment } = await first.json<{ payment: { id: number } }>();
    // The wallet is empty now: a replay must still answer with the payment, not with "fund your wallet".
    const replays = [await tip(), ...(await Promise.all(Array.from({ length: 8 }, tip)))];
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(await replay.json()).toMatchObject({ payment: { id: payment.id }, replayed: true });
    }
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 560 });
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("charges once when the first request and its replays race, even for the wallet's last cents", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 700);
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        postJson(
          `/users/${creator.user.username}/tips`,
          { amountCents: 700, idempotencyKey: key },
          { token: fan.token },
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(
      responses.map((response) => response.json<{ payment: { id: number }; replayed: boolean }>()),
    );
    expect(new Set(bodies.map((body) => body.payment.id)).size).toBe(1);
    expect(bodies.filter((body) => !body.replayed)).toHaveLength(1);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 0 });
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("refuses the same key with another amount, note or creator, and moves nothing", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    const other = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 5000);
    const key = newKey();
    expect(
      (
        await postJson(
          `/users/${creator.user.username}/tips`,
          { amountCents: 500, idempotencyKey: key },
          { token: fan.token },
        )
      ).status,
    ).toBe(200);
    const before = await snapshot();
    for (const [username, body] of [
      [creator.user.username, { amountCents: 600, idempotencyKey: key }],
      [creator.user.username, { amountCents: 500, note: "hi", idempotencyKey: key }],
      [other.user.username, { amountCents: 500, idempotencyKey: key }],
    ] as const) {
      const response = await postJson(`/users/${username}/tips`, body, { token: fan.token });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        message: "This request was already made with different details. Reload the page and try again.",
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("buys a post once under sequential and concurrent replays, and refuses the key on another post", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    const post = await createPost(creator.user.userId, { priceCents: 900 });
    const otherPost = await createPost(creator.user.userId, { priceCents: 900 });
    await fundWallet(fan.user.userId, 2000);
    const key = newKey();
    const buy = (postId: number) =>
      postJson(`/posts/${postId}/purchase`, { priceCents: 900, idempotencyKey: key }, { token: fan.token });
    const racing = await Promise.all(Array.from({ length: 6 }, () => buy(post.id)));
    const sequential = await buy(post.id);
    const bodies = await Promise.all(
      [...racing, sequential].map(async (response) => ({
        status: response.status,
        body: await response.json<{ payment: { id: number }; replayed: boolean }>(),
      })),
    );
    expect(bodies.map((b) => b.status)).toEqual(Array(7).fill(200));
    expect(new Set(bodies.map((b) => b.body.payment.id)).size).toBe(1);
    expect(bodies.filter((b) => !b.body.replayed)).toHaveLength(1);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 1100 });

    const before = await snapshot();
    const reused = await buy(otherPost.id);
    expect(reused.status).toBe(422);
    expect(await snapshot()).toEqual(before);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("requests a withdrawal once under sequential and concurrent replays, and refuses the key for another amount", async () => {
    const creator = await creatorWithAvailable(16_000);
    const creatorRow = await userRow(creator.user.userId);
    const key = newKey();
    const withdraw = (amountCents: number) =>
      requestWithdrawal(ctx(), creatorRow, { amountCents, password: creator.input.password, idempotencyKey: key });
    const racing = await Promise.all(Array.from({ length: 4 }, () => withdraw(6000)));
    const sequential = await withdraw(6000);
    const outcomes = [...racing, sequential];
    expect(new Set(outcomes.map((outcome) => outcome.payout.id)).size).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 10_000 });

    const before = await snapshot();
    await expect(withdraw(7000)).rejects.toMatchObject({ code: "validation" });
    expect(await snapshot()).toEqual(before);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });
});

describe("a batch that fails half-way", () => {
  it("leaves nothing of a transfer and its payment when the batch's last statement breaks a CHECK", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 1000);
    const before = await snapshot();
    const ref = newTransferRef();
    const transferId = transferIdSql(ref);
    const now = new Date().toISOString();
    const statements = [
      ...transferStatements(env.DB, {
        ref,
        kind: "tip",
        legs: [
          { account: walletOf(fan.user.userId), amount: -500 },
          { account: availableOf(creator.user.userId), amount: 500 },
        ],
      }),
      env.DB.prepare(
        `INSERT INTO payments (user_id, kind, amount_cents, status, creator_id, idempotency_key, request_hash, transfer_id, created_at, updated_at)
         VALUES (?, 'tip', 500, 'succeeded', ?, ?, 'h', ${transferId.sql}, ?, ?)`,
      ).bind(fan.user.userId, creator.user.userId, `u:${newKey()}`, ...transferId.binds, now, now),
      // The step that "crashes": an earning whose parts do not add up breaks its CHECK.
      env.DB.prepare(
        `INSERT INTO earnings (creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at)
         VALUES (?, (SELECT id FROM payments WHERE transfer_id = ${transferId.sql}), 'tip', 500, 0, 499, ?, ?)`,
      ).bind(creator.user.userId, ...transferId.binds, now, now),
    ];
    await expect(env.DB.batch(statements)).rejects.toThrow(/CHECK constraint failed/);
    expect(await snapshot()).toEqual(before);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transfers WHERE ref = ?").bind(ref).first()).toEqual({
      n: 0,
    });
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("leaves nothing of a wallet payment whose last effect fails", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 1000);
    const before = await snapshot();
    const now = new Date().toISOString();
    const payment = payFromWallet(env.DB, {
      payer: await userRow(fan.user.userId),
      creatorId: creator.user.userId,
      kind: "tip",
      amountCents: 500,
      idempotencyKey: `u:${newKey()}`,
      feePercent: 20,
      // What was bought cannot be recorded (its parts do not add up): the money must not move either.
      effects: (paymentId) => [
        env.DB.prepare(
          `INSERT INTO earnings (creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at) VALUES (?, ${paymentId.sql}, 'tip', 10, 0, 1, ?, ?)`,
        ).bind(creator.user.userId, ...paymentId.binds, now, now),
      ],
    });
    await expect(payment).rejects.toThrow(/constraint failed/);
    expect(await snapshot()).toEqual(before);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("refuses a hand-written transfer that does not balance, and one that overdraws a wallet", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const wallet = await env.DB.prepare("SELECT id FROM ledger_accounts WHERE user_id = ? AND kind = 'wallet'")
      .bind(fan.user.userId)
      .first<{ id: number }>();
    const before = await snapshot();
    const byHand = (amounts: [number, number][]) => [
      env.DB.prepare(
        "INSERT INTO ledger_transfers (ref, kind, created_at) VALUES ('by-hand', 'correction', '2026-01-01T00:00:00.000Z')",
      ),
      ...amounts.map(([account, cents]) =>
        env.DB.prepare(
          "INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES ((SELECT id FROM ledger_transfers WHERE ref = 'by-hand'), ?, ?)",
        ).bind(account, cents),
      ),
      env.DB.prepare("UPDATE ledger_transfers SET closed = 1 WHERE ref = 'by-hand'"),
    ];
    const fees = PLATFORM_ACCOUNT_IDS.platform_fees;
    // Money out of nowhere: the fees account gains more than the wallet loses.
    await expect(
      env.DB.batch(
        byHand([
          [wallet!.id, -100],
          [fees, 150],
        ]),
      ),
    ).rejects.toThrow(/ledger: unbalanced transfer/);
    // A single entry cannot make a transfer.
    await expect(env.DB.batch(byHand([[fees, 100]]))).rejects.toThrow(/ledger: unbalanced transfer/);
    // Balanced but more than the wallet holds.
    await expect(
      env.DB.batch(
        byHand([
          [wallet!.id, -1001],
          [fees, 1001],
        ]),
      ),
    ).rejects.toThrow(/balance_not_negative/);
    // Writing a balance directly is refused too when it would go below zero.
    await expect(
      env.DB.prepare("UPDATE ledger_accounts SET balance_cents = -1 WHERE id = ?").bind(wallet!.id).run(),
    ).rejects.toThrow(/balance_not_negative/);
    expect(await snapshot()).toEqual(before);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });

  it("refuses an entry added to a transfer after it closed", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const transfer = await env.DB.prepare("SELECT id FROM ledger_transfers WHERE kind = 'top_up'").first<{
      id: number;
    }>();
    await expect(
      env.DB.prepare("INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES (?, ?, 5)")
        .bind(transfer!.id, PLATFORM_ACCOUNT_IDS.provider_clearing)
        .run(),
    ).rejects.toThrow(/ledger: entries go into an open transfer/);
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });
});

describe("the history is immutable", () => {
  it("refuses to update or delete entries and closed transfers", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const before = await snapshot();
    const refused: [string, RegExp][] = [
      ["UPDATE ledger_entries SET amount_cents = amount_cents * 2", /ledger: entries are immutable/],
      ["UPDATE ledger_entries SET account_id = 1", /ledger: entries are immutable/],
      ["DELETE FROM ledger_entries", /ledger: entries are immutable/],
      ["UPDATE ledger_transfers SET memo = 'changed'", /ledger: transfers are immutable/],
      ["UPDATE ledger_transfers SET closed = 0", /ledger: transfers are immutable/],
      ["UPDATE ledger_transfers SET kind = 'correction'", /ledger: transfers are immutable/],
      ["DELETE FROM ledger_transfers", /ledger: transfers are immutable/],
      ["DELETE FROM ledger_accounts", /ledger: accounts are never deleted/],
    ];
    for (const [sql, error] of refused) await expect(env.DB.prepare(sql).run(), sql).rejects.toThrow(error);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses to change a released earning", async () => {
    const creator = await creatorWithAvailable(800);
    await expect(
      env.DB.prepare("UPDATE earnings SET release_transfer_id = NULL WHERE creator_id = ?")
        .bind(creator.user.userId)
        .run(),
    ).rejects.toThrow(/an earning never changes/);
  });
});

describe("any sequence of operations", () => {
  it("keeps every transfer balanced and no balance negative after top-ups, tips, purchases, releases and payouts", async () => {
    const admin = await userRow((await createAdmin()).user.userId);
    const creator = await creatorWithAvailable(16_000);
    const creatorRow = await userRow(creator.user.userId);
    const fan = await createFan();
    const fanRow = await userRow(fan.user.userId);
    await fundWallet(fan.user.userId, 3000);
    const post = await createPost(creator.user.userId, { priceCents: 1200 });
    await purchasePost(ctx(), fanRow, post.id, { priceCents: 1200, idempotencyKey: newKey() });
    await sendTip(ctx(), fanRow, { postId: post.id }, { amountCents: 1800, idempotencyKey: newKey() });
    await expect(
      sendTip(ctx(), fanRow, { postId: post.id }, { amountCents: 100, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({ code: "payment_required" });
    const first = await requestWithdrawal(ctx(), creatorRow, {
      amountCents: 5000,
      password: creator.input.password,
      idempotencyKey: newKey(),
    });
    await decidePayout(ctx(), admin, first.payout.id, { decision: "rejected", reason: "Check the address" });
    const second = await requestWithdrawal(ctx(), creatorRow, {
      amountCents: 16_000,
      password: creator.input.password,
      idempotencyKey: newKey(),
    });
    await decidePayout(ctx(), admin, second.payout.id, { decision: "paid" });
    await expect(
      decidePayout(ctx(), admin, second.payout.id, { decision: "rejected", reason: "late" }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await balancesOf(env.DB, fan.user.userId)).toEqual({ wallet: 0, pending: 0, available: 0 });
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 2400, available: 0 });
    expect(await auditLedger(env.DB)).toEqual(CLEAN_BOOKS);
  });
});
