import { message } from "@shared/messages";

/**
 * The one error type the domain throws for anything a user can cause. `message` and field messages are
 * translation keys (plain English sentences); the API and the Remix actions translate them at the edge.
 */
export type AppErrorCode =
  | "unauthenticated"
  | "payment_required"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation"
  | "rate_limited"
  | "too_large";

const statusOf: Record<AppErrorCode, 401 | 402 | 403 | 404 | 409 | 413 | 422 | 429> = {
  unauthenticated: 401,
  /** The wallet cannot cover a payment (WALLET_NEEDS_FUNDS). */
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  /** The request is valid but the state it acts on has moved on (already purchased, a payout already open). */
  conflict: 409,
  too_large: 413,
  validation: 422,
  rate_limited: 429,
};

export type FieldErrors = Record<string, string[]>;

export interface MessageVars {
  [name: string]: string | number;
}

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly vars: MessageVars = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status() {
    return statusOf[this.code];
  }
}

/**
 * The rest of spec §8's server messages: paying from a wallet that cannot cover the price (a 402, which the
 * client answers with a link to the top-up), and paying before the email address is verified (a 403).
 */
const WALLET_NEEDS_FUNDS = message("You need to fund your wallet!");
export const EMAIL_NOT_VERIFIED = message("Your email didn't verified yet.");

/** A 422 for one field; the top-level message repeats the field's message, as the API contract shows. */
export function fieldError(field: string, message: string, vars: MessageVars = {}): AppError {
  return new AppError("validation", message, { [field]: [message] }, vars);
}

export function tooManyAttempts(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const text =
    minutes === 1
      ? message("Too many attempts. Please try again in 1 minute.")
      : message("Too many attempts. Please try again in {{count}} minutes.");
  return new AppError("rate_limited", text, {}, minutes === 1 ? {} : { count: minutes }, retryAfterSeconds);
}

const PRICE_CHANGED = message("The price changed to {{price, money}}. Check it and try again.");
const NOW_FREE = message("It is free now. Check it and try again.");

/**
 * A charge refused because the price the person was shown is no longer the price (a 409): nothing was charged,
 * and the answer carries the current price (`priceCents`) so the screen can show it and ask again.
 */
export class PriceChangedError extends AppError {
  constructor(
    readonly priceCents: number,
    text: string = priceCents === 0 ? NOW_FREE : PRICE_CHANGED,
  ) {
    super("conflict", text, {}, { price: priceCents });
  }
}

export const needsFunds = () => new AppError("payment_required", WALLET_NEEDS_FUNDS);
/** Paying while a reversed top-up (a refund, a chargeback) left the wallet negative: a 402, settled by a top-up. */
const WALLET_IN_DEBT = message(
  "Your wallet is negative because a card payment was refunded or disputed. Top up to settle it before paying.",
);
export const walletInDebt = () => new AppError("payment_required", WALLET_IN_DEBT);
export const emailNotVerified = () => new AppError("forbidden", EMAIL_NOT_VERIFIED);
