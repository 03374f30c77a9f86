/**
 * What the money screens read, each in one round trip to D1 (one batch): the wallet (/wallet and GET
 * /api/payments) and the withdrawal form.
 */
import type { PaymentView, PayoutMethodView, PayoutView } from "@shared/contracts/money";
import { readTogether } from "../shared/reads";
import { availableOf, balanceRead, debtOf, walletOf } from "./ledger";
import { openPayoutRead } from "./list-payouts";
import { paymentsRead, presentPayment } from "./payments";
import { payoutMethodRead } from "./payout-methods";
import { ownTopUpRead } from "./sandbox-top-up";

export interface WalletScreen {
  /** Negative when a reversed top-up left a debt: the wallet (then empty) less what is owed. */
  balanceCents: number;
  payments: PaymentView[];
  nextCursor: number | null;
  /** The member's own top-up they came back from (`topUpId`), if any. */
  topUp: PaymentView | null;
}

/** The wallet's balance, a page of its history (`before`: the last payment shown) and a returned top-up. */
export async function readWallet(
  db: D1Database,
  userId: number,
  { before = null, topUpId = null }: { before?: number | null; topUpId?: number | null } = {},
): Promise<WalletScreen> {
  const [walletCents, debtCents, page, topUp] = await readTogether(db, [
    balanceRead(db, walletOf(userId)),
    balanceRead(db, debtOf(userId)),
    paymentsRead(db, userId, before),
    ownTopUpRead(db, userId, topUpId ?? 0),
  ]);
  return {
    balanceCents: walletCents + debtCents,
    ...page,
    topUp: topUp && topUpId !== null ? presentPayment(topUp) : null,
  };
}

export interface WithdrawScreen {
  availableCents: number;
  openPayout: PayoutView | null;
  payoutMethod: PayoutMethodView | null;
}

/** What the withdrawal form needs: the available earnings, the payout still open, the payout method. */
export async function readWithdrawal(db: D1Database, creatorId: number): Promise<WithdrawScreen> {
  const [availableCents, openPayout, payoutMethod] = await readTogether(db, [
    balanceRead(db, availableOf(creatorId)),
    openPayoutRead(db, creatorId),
    payoutMethodRead(db, creatorId),
  ]);
  return { availableCents, openPayout, payoutMethod };
}
