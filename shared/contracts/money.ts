/**
 * The money API's shapes as the page receives them (/api/payments, /api/earnings, /api/payouts…): written by the
 * Worker's presenters (worker/domain/money), read by the wallet and dashboard screens. Plain types and
 * constants only: nothing here may import Worker code.
 */

/** `live`: a live stream's entry price; `live_tip`: a tip during a stream. */
export type PaymentKind = "top_up" | "subscription" | "renewal" | "tip" | "post" | "message" | "live" | "live_tip";
export type PaymentStatus = "pending" | "requires_confirmation" | "succeeded" | "failed";

export const EARNING_SOURCES = ["subscription", "tip", "post", "message", "live"] as const;
export type EarningSource = (typeof EARNING_SOURCES)[number];
export type BySource = Record<EarningSource, number>;

/** A line of the /wallet payments history (spec §3 "Payment: date, amount, status"). */
export interface PaymentView {
  id: number;
  kind: PaymentKind;
  amountCents: number;
  status: PaymentStatus;
  createdAt: string;
  creator: { username: string; name: string; avatarUrl: string } | null;
  postId: number | null;
  note: string | null;
  failureReason: string | null;
  /** A sandbox top-up that can still be paid: its card form (/wallet/top-up/{id}); else null. */
  checkoutPath: string | null;
}

export interface EarningsOverview {
  /** Net cents per source (and their total) earned today, in the last 7 and the last 30 UTC days, today included. */
  totals: {
    today: BySource & { total: number };
    last7Days: BySource & { total: number };
    last30Days: BySource & { total: number };
  };
  /** One entry per UTC day, oldest first, the last being today. */
  days: ({ date: string } & BySource)[];
  pendingCents: number;
  availableCents: number;
  /** Held earnings grouped by the UTC day they become available, soonest first. */
  releases: { date: string; cents: number }[];
  feePercent: number;
}

export type PayoutStatus = "requested" | "paid" | "rejected";

/** A line of the payout history (spec §3 "Payout: date, status, amount"). */
export interface PayoutView {
  id: number;
  amountCents: number;
  status: PayoutStatus;
  method: "paypal" | "bank";
  /** Where it goes, masked: "a•••@example.com", "•••• 1234". */
  destination: string;
  rejectionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The method as its owner sees it: the kind, a masked destination, and the non-secret parts of bank details. */
export interface PayoutMethodView {
  kind: "paypal" | "bank";
  destination: string;
  bankName: string | null;
  country: string | null;
  updatedAt: string;
}

/** Where an admin sends the money: the method as it was when the payout was requested, unmasked. */
export type PayoutDestination =
  | { kind: "paypal"; paypalEmail: string }
  | {
      kind: "bank";
      accountHolder: string;
      bankName: string;
      accountNumber: string;
      routingCode: string;
      country: string;
    };

/** A line of the admin's payout queue. */
export interface QueuedPayout {
  id: number;
  amountCents: number;
  createdAt: string;
  creator: { id: number; username: string; name: string; email: string };
  destination: PayoutDestination;
}

export type SandboxOutcome = "succeeded" | "declined" | "requires_confirmation";

/** The sandbox card form's test numbers (development and test only). Any other valid number is declined. */
export const SANDBOX_CARDS: { number: string; outcome: SandboxOutcome }[] = [
  { number: "4242 4242 4242 4242", outcome: "succeeded" },
  { number: "4000 0000 0000 0002", outcome: "declined" },
  { number: "4000 0025 0000 3155", outcome: "requires_confirmation" },
];
