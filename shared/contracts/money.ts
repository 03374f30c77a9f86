/**
 * The money API's answers (/api/wallet, tips, purchases, top-ups, /api/dashboard/earnings, payouts, the payout
 * method): written by the Worker's presenters (worker/domain/money), documented by worker/api, checked by the page
 * (app/components/wallet/wallet-shapes.ts and app/components/dashboard/dashboard-shapes.ts, generated from these
 * schemas). The page imports types only from here; its constants are in money-constants.ts.
 */
import { z } from "zod";
import { orNull } from "./common";
import { EARNING_SOURCES, type EarningSource } from "./money-constants";

/** `live`: a live stream's entry price; `live_tip`: a tip during a stream. */
const PAYMENT_KINDS = ["top_up", "subscription", "renewal", "tip", "post", "message", "live", "live_tip"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
const PAYMENT_STATUSES = ["pending", "requires_confirmation", "succeeded", "failed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A line of the /wallet payments history (spec §3 "Payment: date, amount, status"). */
export const PaymentSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(PAYMENT_KINDS),
    amountCents: z.number().int(),
    status: z.enum(PAYMENT_STATUSES),
    createdAt: z.string(),
    creator: z.object({ username: z.string(), name: z.string(), avatarUrl: z.string() }).nullable(),
    postId: z.number().int().nullable(),
    note: z.string().nullable(),
    failureReason: z.string().nullable(),
    // Copies of the wallet saved for offline reading before it existed have none.
    checkoutPath: z.string().nullable().default(null).meta({
      description: "Where a sandbox top-up still waiting to be paid is finished (the card form), else null",
    }),
  })
  .meta({ id: "Payment" });
export type PaymentView = z.infer<typeof PaymentSchema>;

/** A keyset page of the caller's payments, newest first. */
export const PaymentPageSchema = z
  .object({
    payments: z.array(PaymentSchema),
    nextCursor: z.number().int().nullable().meta({ description: "Pass back as `cursor`; null at the end" }),
  })
  .meta({ id: "PaymentPage" });
export type PaymentPage = z.infer<typeof PaymentPageSchema>;

/** /api/wallet: the balance and the first page of payments. */
export const WalletSchema = PaymentPageSchema.extend({ balanceCents: z.number().int() }).meta({ id: "Wallet" });

/** A charge from the wallet (tip, purchase): its payment, and whether it was an idempotent replay. */
export const PaymentResultSchema = z
  .object({
    payment: PaymentSchema,
    replayed: z
      .boolean()
      .meta({ description: "The idempotency key was used before for this request: nothing was charged again" }),
  })
  .meta({ id: "PaymentResult" });
export type PaymentResult = z.infer<typeof PaymentResultSchema>;

/** A top-up as it stands. */
export const TopUpPaymentSchema = z.object({ payment: PaymentSchema }).meta({ id: "TopUpPayment" });

/** What a payment provider's webhook is answered (the provider reads it, not a person: never translated). */
export const WebhookAnswerSchema = z
  .object({
    received: z.boolean(),
    outcome: z.enum(["applied", "duplicate", "ignored"]).optional(),
    error: z.string().optional(),
  })
  .meta({ id: "WebhookAnswer" });

/** A top-up just started, and where to pay it. */
export const TopUpStartSchema = z
  .object({
    payment: PaymentSchema,
    redirectUrl: z.string().meta({
      description:
        "The provider's checkout (Stripe), the sandbox card form, or /wallet?topUp={id} when already settled",
    }),
    replayed: z.boolean(),
  })
  .meta({ id: "TopUpStart" });

const bySource = Object.fromEntries(EARNING_SOURCES.map((source) => [source, z.number().int()])) as Record<
  EarningSource,
  z.ZodNumber
>;
const TotalsSchema = z.object({ ...bySource, total: z.number().int() });
export type BySource = Record<EarningSource, number>;

export const EarningsOverviewSchema = z
  .object({
    totals: z
      .object({ today: TotalsSchema, last7Days: TotalsSchema, last30Days: TotalsSchema })
      .meta({ description: "Earned today, in the last 7 and the last 30 UTC days, today included" }),
    days: z
      .array(z.object({ date: z.string(), ...bySource }))
      .meta({ description: "One entry per UTC day, oldest first, the last being today" }),
    pendingCents: z.number().int(),
    availableCents: z.number().int(),
    releases: z
      .array(
        z.object({
          date: z.string().meta({ description: "UTC day the amount becomes available" }),
          cents: z.number().int(),
        }),
      )
      .meta({ description: "Held earnings grouped by the day they become available, soonest first" }),
    feePercent: z.number(),
  })
  .meta({
    id: "EarningsOverview",
    description: "Net cents (after the platform fee) by source; windows are UTC days ending today",
  });
export type EarningsOverview = z.infer<typeof EarningsOverviewSchema>;

const PAYOUT_STATUSES = ["requested", "paid", "rejected"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
const PAYOUT_METHODS = ["paypal", "bank"] as const;

/** A line of the payout history (spec §3 "Payout: date, status, amount"). */
const PayoutSchema = z
  .object({
    id: z.number().int(),
    amountCents: z.number().int(),
    status: z.enum(PAYOUT_STATUSES),
    method: z.enum(PAYOUT_METHODS),
    destination: z.string().meta({ description: "Masked: a•••@example.com, •••• 1234" }),
    rejectionReason: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: "Payout" });
export type PayoutView = z.infer<typeof PayoutSchema>;

/** A keyset page of the creator's payouts, newest first. */
export const PayoutPageSchema = z
  .object({
    payouts: z.array(PayoutSchema),
    nextCursor: z.number().int().nullable().meta({ description: "Pass back as `cursor`; null at the end" }),
  })
  .meta({ id: "PayoutPage" });
export type PayoutPage = z.infer<typeof PayoutPageSchema>;

/** A withdrawal request, and whether it was an idempotent replay. */
export const WithdrawalResultSchema = z
  .object({ payout: PayoutSchema, replayed: z.boolean() })
  .meta({ id: "WithdrawalResult" });

/** A requested payout an admin has just marked paid or rejected. */
export const DecidedPayoutSchema = z.object({ payout: PayoutSchema }).meta({ id: "DecidedPayout" });

/** The method as its owner sees it: the kind, a masked destination, and the non-secret parts of bank details. */
const PayoutMethodViewSchema = z
  .object({
    kind: z.enum(PAYOUT_METHODS),
    destination: z.string().meta({ description: "Masked: a•••@example.com, •••• 1234" }),
    bankName: z.string().nullable(),
    country: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: "PayoutMethod" });
export type PayoutMethodView = z.infer<typeof PayoutMethodViewSchema>;

/** The creator's payout method; null when none is set. */
export const CurrentPayoutMethodSchema = z
  .object({ method: orNull(PayoutMethodViewSchema) })
  .meta({ id: "CurrentPayoutMethod" });

/** The payout method just saved. */
export const SavedPayoutMethodSchema = z.object({ method: PayoutMethodViewSchema }).meta({ id: "SavedPayoutMethod" });

/** Where an admin sends the money: the method as it was when the payout was requested, unmasked. */
const PayoutDestinationSchema = z
  .union([
    z.object({ kind: z.literal("paypal"), paypalEmail: z.string() }),
    z.object({
      kind: z.literal("bank"),
      accountHolder: z.string(),
      bankName: z.string(),
      accountNumber: z.string(),
      routingCode: z.string(),
      country: z.string(),
    }),
  ])
  .meta({ description: "The method as it was when the payout was requested, in full" });
export type PayoutDestination = z.infer<typeof PayoutDestinationSchema>;

/** A line of the admin's payout queue. */
const QueuedPayoutSchema = z
  .object({
    id: z.number().int(),
    amountCents: z.number().int(),
    createdAt: z.string(),
    creator: z.object({ id: z.number().int(), username: z.string(), name: z.string(), email: z.string() }),
    destination: PayoutDestinationSchema,
  })
  .meta({ id: "QueuedPayout" });
export type QueuedPayout = z.infer<typeof QueuedPayoutSchema>;

/** The admin's payout queue: requested payouts, oldest first. */
export const PayoutQueueSchema = z.object({ payouts: z.array(QueuedPayoutSchema) }).meta({ id: "PayoutQueue" });

/**
 * A line of the admin's disputes tab (read by its loader, no API): a refund or a chargeback of a top-up, what the
 * fan still owed from it when it was opened, and the creators' earnings it holds (or, once lost, took back).
 */
export interface AdminDispute {
  id: number;
  kind: "refund" | "dispute";
  status: "refunded" | "open" | "won" | "lost";
  amountCents: number;
  owedCents: number;
  heldCents: number;
  reason: string;
  openedAt: string;
  closedAt: string | null;
  fan: { id: number; username: string; name: string };
}
