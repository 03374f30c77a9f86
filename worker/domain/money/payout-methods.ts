/**
 * Where a creator's payouts go (spec §3, §5): a PayPal address, typed twice, or bank transfer details. Changing
 * it asks for the password. A payout already requested keeps the snapshot it was requested with (withdrawals.ts).
 */
import { confirmPassword } from "../accounts/confirm-password";
import type { PayoutMethodInput } from "@shared/contracts/money-bodies";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { readOne, type Read } from "../shared/reads";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { PayoutMethodView } from "@shared/contracts/money";
export { type PayoutMethodView };

/** The method as its owner sees it: the kind, a masked destination, and the non-secret parts of bank details. */

/** The method's details as shown in lists: enough to recognise, not enough to reuse. */
export function maskDestination(kind: "paypal" | "bank", details: Record<string, string | null>): string {
  if (kind === "paypal") {
    const [local = "", domain = ""] = String(details.paypalEmail ?? "").split("@");
    return `${local.slice(0, 1)}•••@${domain}`;
  }
  return `•••• ${String(details.accountNumber ?? "")
    .replace(/\s+/g, "")
    .slice(-4)}`;
}

export interface PayoutMethodRow {
  kind: "paypal" | "bank";
  paypal_email: string | null;
  bank_account_holder: string | null;
  bank_name: string | null;
  bank_account_number: string | null;
  bank_routing_code: string | null;
  bank_country: string | null;
  updated_at: string;
}

function presentPayoutMethod(row: PayoutMethodRow): PayoutMethodView {
  return {
    kind: row.kind,
    destination: maskDestination(row.kind, { paypalEmail: row.paypal_email, accountNumber: row.bank_account_number }),
    bankName: row.bank_name,
    country: row.bank_country,
    updatedAt: row.updated_at,
  };
}

export const findPayoutMethod = (db: D1Database, userId: number) =>
  db.prepare("SELECT * FROM payout_methods WHERE user_id = ?").bind(userId).first<PayoutMethodRow>();

/** The creator's payout method as their screens show it (masked), or null. */
export const payoutMethodRead = (db: D1Database, userId: number): Read<PayoutMethodView | null> => ({
  statement: db.prepare("SELECT * FROM payout_methods WHERE user_id = ?").bind(userId),
  answer: (result) => {
    const row = result.results[0] as PayoutMethodRow | undefined;
    return row ? presentPayoutMethod(row) : null;
  },
});

export const getPayoutMethod = (db: D1Database, userId: number): Promise<PayoutMethodView | null> =>
  readOne(payoutMethodRead(db, userId));

/** Where a payout goes, as the payout keeps it (payouts.method_details): the method at the time of the request. */
export const payoutDetailsOf = (method: PayoutMethodRow) =>
  method.kind === "paypal"
    ? { paypalEmail: method.paypal_email }
    : {
        accountHolder: method.bank_account_holder,
        bankName: method.bank_name,
        accountNumber: method.bank_account_number,
        routingCode: method.bank_routing_code,
        country: method.bank_country,
      };

/** Replaces the creator's payout method (there is one per creator). */
export async function setPayoutMethod(
  ctx: Pick<DomainContext, "db" | "config">,
  creator: UserRow,
  input: PayoutMethodInput,
): Promise<PayoutMethodView> {
  if (creator.role !== "creator") throw new AppError("forbidden", message("Only creators can receive payouts."));
  await confirmPassword(ctx, creator, input.password);
  const { db } = ctx;
  const bank = input.kind === "bank" ? input : null;
  const row = await db
    .prepare(
      `INSERT INTO payout_methods (user_id, kind, paypal_email, bank_account_holder, bank_name, bank_account_number, bank_routing_code, bank_country, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET kind = excluded.kind, paypal_email = excluded.paypal_email,
         bank_account_holder = excluded.bank_account_holder, bank_name = excluded.bank_name,
         bank_account_number = excluded.bank_account_number, bank_routing_code = excluded.bank_routing_code,
         bank_country = excluded.bank_country, updated_at = excluded.updated_at
       RETURNING *`,
    )
    .bind(
      creator.id,
      input.kind,
      input.kind === "paypal" ? input.paypalEmail : null,
      bank?.accountHolder ?? null,
      bank?.bankName ?? null,
      bank?.accountNumber ?? null,
      bank?.routingCode ?? null,
      bank?.country ?? null,
      isoNow(),
    )
    .first<PayoutMethodRow>();
  return presentPayoutMethod(row!);
}
