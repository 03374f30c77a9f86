import { publicMediaUrl } from "../accounts/users";
import { AppError, emailNotVerified, needsFunds, walletInDebt } from "../shared/errors";
import { sha256Hex } from "../shared/crypto";
import { isoNow } from "../shared/time";
import {
  balanceOf,
  balanceSql,
  debtOf,
  ledgerRefusal,
  newTransferRef,
  PLATFORM_FEES,
  pendingOf,
  transferIdSql,
  transferStatements,
  walletOf,
  type Sql,
} from "./ledger";
import { IDEMPOTENCY_KEY_REUSED, releaseDateOf, splitEarning } from "./rules";
import { SANDBOX_TOP_UP_LIFETIME_MS } from "./top-ups";
import { bothGuards } from "./wallet-credit";
import { firstRow, readOne, type Read } from "../shared/reads";
import type { PaymentKind, PaymentStatus, PaymentView } from "@shared/contracts/money";
import type { EarningSource } from "@shared/contracts/money-constants";
export { type PaymentView };

export interface PaymentRow {
  id: number;
  user_id: number;
  kind: PaymentKind;
  amount_cents: number;
  status: PaymentStatus;
  creator_id: number | null;
  post_id: number | null;
  subscription_id: number | null;
  live_stream_id: number | null;
  offer_id: number | null;
  gift_for_id: number | null;
  note: string | null;
  provider: "sandbox" | "stripe" | null;
  provider_ref: string | null;
  failure_reason: string | null;
  idempotency_key: string;
  request_hash: string;
  transfer_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The dashboard's source of an earning: a renewal is a subscription's, a stream's entry and tips are "live". */
const sourceOfPayment = (kind: Exclude<PaymentKind, "top_up">): EarningSource =>
  kind === "renewal" ? "subscription" : kind === "live" || kind === "live_tip" ? "live" : kind;

/** The hash that tells a replay (same key, same request) from a reused key. */
export async function requestHash(request: Record<string, unknown>): Promise<string> {
  const canonical = JSON.stringify(
    Object.keys(request)
      .sort()
      .map((key) => [key, request[key] ?? null]),
  );
  return sha256Hex(canonical);
}

/** The payment a user made with an idempotency key (already prefixed), if any. */
export const findPaymentByKey = (db: D1Database, userId: number, key: string): Promise<PaymentRow | null> =>
  readOne(paymentByKeyRead(db, userId, key));

/** The payment with this key, if it is a replay of the same request; a different request with the key is refused. */
export async function replayOf(db: D1Database, userId: number, key: string, hash: string): Promise<PaymentRow | null> {
  const existing = await findPaymentByKey(db, userId, key);
  if (existing && existing.request_hash !== hash)
    throw new AppError("validation", IDEMPOTENCY_KEY_REUSED, { idempotencyKey: [IDEMPOTENCY_KEY_REUSED] });
  return existing;
}

type ReplayDetails = { kind: PaymentKind; amountCents: number; request: Record<string, unknown> };

/** The payment a user made with an idempotency key (already prefixed), as a read to send with an access check. */
export const paymentByKeyRead = (db: D1Database, userId: number, key: string): Read<PaymentRow | null> =>
  firstRow<PaymentRow>(
    db.prepare("SELECT * FROM payments WHERE user_id = ? AND idempotency_key = ?").bind(userId, key),
  );

/**
 * The payment already made with this key for the same request (`request` as given to payFromWallet, with its kind
 * and amount; the creator is the payment's own), from the payment found with the key (paymentByKeyRead), or null
 * if the key is new; the key used for another request is refused. Commands ask before their access checks: a
 * retry after a lost answer says what was charged even if the post, profile or conversation has changed since.
 */
export async function replayedFrom(
  earlier: PaymentRow | null,
  { kind, amountCents, request }: ReplayDetails,
): Promise<PaymentRow | null> {
  if (!earlier) return null;
  if (
    earlier.request_hash !== (await requestHash({ ...request, kind, amount: amountCents, creator: earlier.creator_id }))
  ) {
    throw new AppError("validation", IDEMPOTENCY_KEY_REUSED, { idempotencyKey: [IDEMPOTENCY_KEY_REUSED] });
  }
  return earlier;
}

const paymentIdSql = (userId: number, key: string): Sql => ({
  sql: "(SELECT id FROM payments WHERE user_id = ? AND idempotency_key = ?)",
  binds: [userId, key],
});

export interface WalletPayment {
  payer: { id: number; email_verified_at: string | null };
  creatorId: number;
  kind: Exclude<PaymentKind, "top_up">;
  amountCents: number;
  /** Prefixed with clientKey() or systemKey(). */
  idempotencyKey: string;
  /** What identifies the request beyond kind, amount and creator (a post id, a period…), for the replay check. */
  request?: Record<string, unknown>;
  postId?: number | null;
  subscriptionId?: number | null;
  /** The stream of a "live" (entry) or "live_tip" payment. */
  liveStreamId?: number | null;
  /** The offer that priced a subscription's payment (a promotion, a trial's conversion, the retention offer). */
  offerId?: number | null;
  /** The member a gift of a subscription is for. */
  giftForId?: number | null;
  note?: string | null;
  feePercent: number;
  /** The cron's renewals skip the email check: the fan agreed when subscribing. */
  system?: boolean;
  /** A condition the payment depends on (see TransferSpec.guard). */
  guard?: Sql;
  /** Statements recording what was bought, run after the payment in the same batch (a purchase row…). */
  effects?: (payment: Sql) => D1PreparedStatement[];
  /** Maps a database refusal of an effect (a unique key of what was bought) to the user's error. */
  refusal?: (error: unknown) => AppError | null;
}

export interface PaymentOutcome {
  payment: PaymentRow;
  /** The same key was used before for the same request: nothing was charged this time. */
  replayed: boolean;
  /** The results of the caller's effects, in their order (none for a replay). */
  effects: D1Result[];
}

/**
 * Pays a creator from the fan's wallet: one batch writes the transfer (wallet → creator's pending earnings and
 * the platform's fee), the payment, the earning with its release date and the caller's effects. The wallet's
 * balance check runs inside the database, so concurrent payments can never overspend it. A replayed key (even
 * racing its first request) answers with the first payment and moves nothing; a key reused for another request
 * is refused.
 */
export async function payFromWallet(db: D1Database, spend: WalletPayment): Promise<PaymentOutcome> {
  if (!spend.system && spend.payer.email_verified_at === null) throw emailNotVerified();
  const hash = await walletPaymentHash(spend);
  // The key is looked up only once the payment is refused, which saves the common case a round trip: a replay
  // cannot get through the batch (the payment's unique key aborts it, or the wallet it emptied does, or what it
  // bought does), so it always lands here and answers with the first result, or is refused for other details.
  const replayed = async (): Promise<PaymentOutcome | null> => {
    const first = await replayOf(db, spend.payer.id, spend.idempotencyKey, hash);
    return first ? { payment: first, replayed: true, effects: [] } : null;
  };
  const { statements, paymentAt } = walletPaymentBatch(db, spend, hash);
  try {
    const results = await db.batch(statements);
    return {
      payment: results[paymentAt]!.results[0] as PaymentRow,
      replayed: false,
      effects: results.slice(paymentAt + 2),
    };
  } catch (error) {
    const first = await replayed();
    if (first) return first;
    const refusal = ledgerRefusal(error);
    if (
      (refusal === "insufficient_funds" || refusal === "state_changed") &&
      (await balanceOf(db, debtOf(spend.payer.id))) < 0
    )
      throw walletInDebt();
    if (refusal === "insufficient_funds") throw needsFunds();
    const mapped = spend.refusal?.(error);
    if (mapped) throw mapped;
    throw error;
  }
}

/** The hash a wallet payment's row keeps, which tells its replay (same key, same request) from a reused key. */
export async function walletPaymentHash(spend: WalletPayment): Promise<string> {
  if (!Number.isSafeInteger(spend.amountCents) || spend.amountCents <= 0)
    throw new Error("payFromWallet: the amount must be a positive integer");
  return requestHash({ ...spend.request, kind: spend.kind, amount: spend.amountCents, creator: spend.creatorId });
}

/**
 * The batch of one wallet payment, as payFromWallet commits it: the transfer's statements, the payment (RETURNING
 * its row, at `paymentAt`, with `hash`: walletPaymentHash), the earning, then the caller's effects. Also what the
 * money benchmark commits alone, to show what the database's part of a payment costs.
 */
export function walletPaymentBatch(
  db: D1Database,
  spend: WalletPayment,
  hash: string,
): { statements: D1PreparedStatement[]; paymentAt: number } {
  const now = isoNow();
  const ref = newTransferRef();
  const { feeCents, netCents } = splitEarning(spend.amountCents, spend.feePercent);
  // A member who owes the platform (a reversed top-up) cannot spend until a top-up settles it.
  const debt = balanceSql(debtOf(spend.payer.id));
  const notInDebt: Sql = { sql: `${debt.sql} = 0`, binds: debt.binds };
  const transfer = transferStatements(db, {
    ref,
    kind: spend.kind,
    createdAt: now,
    guard: spend.guard ? bothGuards(notInDebt, spend.guard) : notInDebt,
    legs: [
      { account: walletOf(spend.payer.id), amount: -spend.amountCents },
      { account: pendingOf(spend.creatorId), amount: netCents },
      { account: PLATFORM_FEES, amount: feeCents },
    ],
  });
  const transferId = transferIdSql(ref);
  const payment = paymentIdSql(spend.payer.id, spend.idempotencyKey);
  const statements = [
    ...transfer,
    db
      .prepare(
        `INSERT INTO payments (user_id, kind, amount_cents, status, creator_id, post_id, subscription_id, live_stream_id, offer_id, gift_for_id, note, idempotency_key, request_hash, transfer_id, created_at, updated_at)
         VALUES (?, ?, ?, 'succeeded', ?, ?, ?, ?, ?, ?, ?, ?, ?, ${transferId.sql}, ?, ?) RETURNING *`,
      )
      .bind(
        spend.payer.id,
        spend.kind,
        spend.amountCents,
        spend.creatorId,
        spend.postId ?? null,
        spend.subscriptionId ?? null,
        spend.liveStreamId ?? null,
        spend.offerId ?? null,
        spend.giftForId ?? null,
        spend.note ?? null,
        spend.idempotencyKey,
        hash,
        ...transferId.binds,
        now,
        now,
      ),
    db
      .prepare(
        `INSERT INTO earnings (creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at)
         VALUES (?, ${payment.sql}, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        spend.creatorId,
        ...payment.binds,
        sourceOfPayment(spend.kind),
        spend.amountCents,
        feeCents,
        netCents,
        now,
        releaseDateOf(now),
      ),
    ...(spend.effects?.(payment) ?? []),
  ];
  return { statements, paymentAt: transfer.length };
}

interface PaymentListRow extends PaymentRow {
  creator_username: string | null;
  creator_name: string | null;
  creator_avatar_key: string | null;
}

const PAYMENTS_PAGE_SIZE = 20;

/**
 * Where the payer finishes a top-up left at the sandbox's card form: its page while the top-up waits and is young
 * enough to be paid, nothing once the cron would fail it as not completed in time (expireAbandonedSandboxTopUps).
 * A Stripe top-up has no such page of ours.
 */
function checkoutPathOf(row: PaymentRow, now = Date.now()): string | null {
  if (row.kind !== "top_up" || row.provider !== "sandbox") return null;
  if (row.status !== "pending" && row.status !== "requires_confirmation") return null;
  if (Date.parse(row.created_at) <= now - SANDBOX_TOP_UP_LIFETIME_MS) return null;
  return `/wallet/top-up/${row.id}`;
}

export function presentPayment(row: PaymentRow & Partial<PaymentListRow>): PaymentView {
  return {
    id: row.id,
    kind: row.kind,
    amountCents: row.amount_cents,
    status: row.status,
    createdAt: row.created_at,
    creator: row.creator_username
      ? {
          username: row.creator_username,
          name: row.creator_name ?? "",
          avatarUrl: publicMediaUrl(row.creator_avatar_key ?? null),
        }
      : null,
    postId: row.post_id,
    note: row.note,
    failureReason: row.failure_reason,
    checkoutPath: checkoutPathOf(row),
  };
}

/** The /wallet history: newest first, a page at a time; `before` is the id of the last payment shown. */
export function paymentsRead(
  db: D1Database,
  userId: number,
  before: number | null,
): Read<{ payments: PaymentView[]; nextCursor: number | null }> {
  return {
    statement: db
      .prepare(
        `SELECT p.*, c.username AS creator_username, c.name AS creator_name, c.avatar_key AS creator_avatar_key
         FROM payments p LEFT JOIN users c ON c.id = p.creator_id
         WHERE p.user_id = ?1 AND p.id < ?2
         ORDER BY p.id DESC LIMIT ?3`,
      )
      .bind(userId, before ?? Number.MAX_SAFE_INTEGER, PAYMENTS_PAGE_SIZE + 1),
    answer: (result) => {
      const rows = result.results as PaymentListRow[];
      const page = rows.slice(0, PAYMENTS_PAGE_SIZE);
      return {
        payments: page.map(presentPayment),
        nextCursor: rows.length > PAYMENTS_PAGE_SIZE ? page[page.length - 1]!.id : null,
      };
    },
  };
}
