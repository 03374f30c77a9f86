import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { describe, expect, it } from "vitest";
import { findUserById } from "../../worker/domain/accounts/users";
import {
  auditLedger,
  balanceOf,
  balancesOf,
  ledgerRefusal,
  newTransferRef,
  PLATFORM_FEES,
  PROVIDER_CLEARING,
  transferStatements,
  walletOf,
} from "../../worker/domain/money/ledger";
import { creditTopUp, failTopUp } from "../../worker/domain/money/top-ups";
import { sendTip } from "../../worker/domain/money/send-tip";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";

const ctx = () => testContext();
const userRow = async (id: number) => (await findUserById(env.DB, id))!;

describe("the ledger's database rules", () => {
  it("credits a top-up and splits a tip into the creator's pending earnings and the platform fee", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 1000);
    const { payment } = await sendTip(
      ctx(),
      await userRow(fan.user.userId),
      { username: creator.user.username },
      { amountCents: 500, idempotencyKey: newKey() },
    );
    expect(payment).toMatchObject({ kind: "tip", amountCents: 500, status: "succeeded" });
    expect(await balancesOf(env.DB, fan.user.userId)).toEqual({ wallet: 500, pending: 0, available: 0 });
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 400, available: 0 });
    expect(await balanceOf(env.DB, PLATFORM_FEES)).toBeGreaterThanOrEqual(100);
    expect(await auditLedger(env.DB)).toEqual({
      unbalancedTransfers: 0,
      openTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
      totalCents: 0,
    });
  });

  it("refuses an unbalanced transfer and leaves nothing of its batch", async () => {
    const fan = await createFan();
    const before = await auditLedger(env.DB);
    const statements = transferStatements(env.DB, {
      ref: newTransferRef(),
      kind: "correction",
      legs: [
        { account: walletOf(fan.user.userId), amount: 100 },
        { account: PLATFORM_FEES, amount: -50 },
      ],
    });
    await expect(env.DB.batch(statements)).rejects.toThrow(/unbalanced transfer|balance_not_negative/);
    expect(await balanceOf(env.DB, walletOf(fan.user.userId))).toBe(0);
    expect(await auditLedger(env.DB)).toEqual(before);
  });

  it("releases held earnings once their date has come", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 1000);
    await sendTip(
      ctx(),
      await userRow(fan.user.userId),
      { username: creator.user.username },
      { amountCents: 1000, idempotencyKey: newKey() },
    );
    await env.DB.prepare("UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE creator_id = ?")
      .bind(creator.user.userId)
      .run();
    await releaseDueEarnings(env);
    await releaseDueEarnings(env);
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 0, available: 800 });
    expect((await auditLedger(env.DB)).unbalancedTransfers).toBe(0);
  });

  it("writes nothing when the guard no longer holds, and tells that refusal apart from a lack of funds", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 300);
    const before = await auditLedger(env.DB);
    const move = (cents: number, guard?: { sql: string; binds: unknown[] }) =>
      env.DB.batch(
        transferStatements(env.DB, {
          kind: "correction",
          guard,
          legs: [
            { account: walletOf(fan.user.userId), amount: -cents },
            { account: PLATFORM_FEES, amount: cents },
          ],
        }),
      );
    const refusalOf = (promise: Promise<unknown>) => promise.then(() => null, ledgerRefusal);
    expect(await refusalOf(move(100, { sql: "1 = 0", binds: [] }))).toBe("state_changed");
    expect(await refusalOf(move(301))).toBe("insufficient_funds");
    expect(await balanceOf(env.DB, walletOf(fan.user.userId))).toBe(300);
    expect(await auditLedger(env.DB)).toEqual(before);
    await move(100, { sql: "EXISTS (SELECT 1 FROM users WHERE id = ?)", binds: [fan.user.userId] });
    expect(await balanceOf(env.DB, walletOf(fan.user.userId))).toBe(200);
  });

  it("leaves zero legs out, and refuses a transfer with nothing left", async () => {
    const fan = await createFan();
    await fundWallet(fan.user.userId, 300);
    const ref = newTransferRef();
    await env.DB.batch(
      transferStatements(env.DB, {
        ref,
        kind: "correction",
        legs: [
          { account: walletOf(fan.user.userId), amount: -50 },
          { account: PROVIDER_CLEARING, amount: 0 },
          { account: PLATFORM_FEES, amount: 50 },
        ],
      }),
    );
    const entries = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id WHERE t.ref = ?",
    )
      .bind(ref)
      .first<{ n: number }>();
    expect(entries!.n).toBe(2);
    await expect(
      env.DB.batch(transferStatements(env.DB, { kind: "correction", legs: [{ account: PLATFORM_FEES, amount: 0 }] })),
    ).rejects.toThrow(/unbalanced transfer/);
  });

  it("credits a top-up once however often its provider event arrives, even at the same time", async () => {
    const fan = await createFan();
    const now = new Date().toISOString();
    const payment = await env.DB.prepare(
      `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, created_at, updated_at)
       VALUES (?, 'top_up', 2500, 'pending', 'sandbox', ?, 'h', ?, ?) RETURNING id`,
    )
      .bind(fan.user.userId, `u:${newKey()}`, now, now)
      .first<{ id: number }>();
    const event = { provider: "sandbox" as const, eventId: "evt_once", paymentId: payment!.id, amountCents: 2500 };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => creditTopUp(testContext(), event)));
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    expect(await creditTopUp(testContext(), event)).not.toBe("applied");
    expect(await creditTopUp(testContext(), { ...event, eventId: "evt_other" })).toBe("ignored");
    expect(await balanceOf(env.DB, walletOf(fan.user.userId))).toBe(2500);
    expect(await auditLedger(env.DB)).toEqual({
      unbalancedTransfers: 0,
      openTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
      totalCents: 0,
    });
  });

  it("settles a top-up one way only when its success and its failure arrive at the same time", async () => {
    const fan = await createFan();
    const now = new Date().toISOString();
    const payment = await env.DB.prepare(
      `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, created_at, updated_at)
       VALUES (?, 'top_up', 1500, 'pending', 'sandbox', ?, 'h', ?, ?) RETURNING id`,
    )
      .bind(fan.user.userId, `u:${newKey()}`, now, now)
      .first<{ id: number }>();
    const [credited, failed] = await Promise.all([
      creditTopUp(testContext(), {
        provider: "sandbox",
        eventId: "evt_paid",
        paymentId: payment!.id,
        amountCents: 1500,
      }),
      failTopUp(env, { provider: "sandbox", eventId: "evt_declined", paymentId: payment!.id, reason: "card_declined" }),
    ]);
    expect([credited, failed].filter((outcome) => outcome === "applied")).toHaveLength(1);
    const status = await env.DB.prepare("SELECT status FROM payments WHERE id = ?")
      .bind(payment!.id)
      .first<{ status: string }>();
    expect(status!.status).toBe(credited === "applied" ? "succeeded" : "failed");
    expect(await balanceOf(env.DB, walletOf(fan.user.userId))).toBe(credited === "applied" ? 1500 : 0);
    expect((await auditLedger(env.DB)).totalCents).toBe(0);
  });
});
