import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { findUserById } from "../../worker/domain/accounts/users";
import { config } from "../../worker/env";
import { auditLedger, balanceOf, balancesOf, newTransferRef, PLATFORM_FEES, transferStatements, walletOf } from "../../worker/domain/money/ledger";
import { sendTip } from "../../worker/domain/money/send-tip";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";

const ctx = () => ({ db: env.DB, env, config: config(env) });
const userRow = async (id: number) => (await findUserById(env.DB, id))!;

describe("the ledger's database rules", () => {
  it("credits a top-up and splits a tip into the creator's pending earnings and the platform fee", async () => {
    const fan = await createFan();
    const creator = await createVerifiedCreator();
    await fundWallet(fan.user.userId, 1000);
    const { payment } = await sendTip(ctx(), await userRow(fan.user.userId), { username: creator.user.username }, { amountCents: 500, idempotencyKey: newKey() });
    expect(payment).toMatchObject({ kind: "tip", amountCents: 500, status: "succeeded" });
    expect(await balancesOf(env.DB, fan.user.userId)).toEqual({ wallet: 500, pending: 0, available: 0 });
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 400, available: 0 });
    expect(await balanceOf(env.DB, PLATFORM_FEES)).toBeGreaterThanOrEqual(100);
    expect(await auditLedger(env.DB)).toEqual({ unbalancedTransfers: 0, openTransfers: 0, negativeAccounts: 0, driftedAccounts: 0, totalCents: 0 });
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
    await sendTip(ctx(), await userRow(fan.user.userId), { username: creator.user.username }, { amountCents: 1000, idempotencyKey: newKey() });
    await env.DB.prepare("UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE creator_id = ?").bind(creator.user.userId).run();
    await releaseDueEarnings(env);
    await releaseDueEarnings(env);
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual({ wallet: 0, pending: 0, available: 800 });
    expect((await auditLedger(env.DB)).unbalancedTransfers).toBe(0);
  });
});
