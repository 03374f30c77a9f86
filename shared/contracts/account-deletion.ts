/**
 * Deleting one's account (Settings → Privacy and data, /api/account/deletion): the state and what happens to the
 * person's money, read by the page before they confirm, and the request's body.
 */
import { z } from "zod";
import { passwordText } from "./accounts";
import { singleLineText } from "./text";

/** The days between asking and the deletion, during which signing in and keeping the account undoes it. */
export const DELETION_GRACE_DAYS = 30;

export const AccountDeletionSchema = z
  .object({
    deletesAt: z.string().nullable().meta({ description: "When the account is deleted; null when it is not leaving" }),
    isCreator: z.boolean(),
    walletCents: z.number().int().meta({ description: "Forfeited when the account is deleted" }),
    pendingCents: z.number().int().meta({ description: "Earnings still held: they keep freeing up" }),
    availableCents: z.number().int().meta({ description: "Paid out to the payout method when the account is deleted" }),
    openPayoutCents: z.number().int().meta({ description: "A withdrawal requested and not yet decided (0: none)" }),
    hasPayoutMethod: z.boolean(),
  })
  .meta({ id: "AccountDeletion" });
export type AccountDeletionView = z.infer<typeof AccountDeletionSchema>;

export const AccountDeletionBodySchema = z.object({
  password: passwordText.optional(),
  /** The two-step code (authenticator or recovery code) when two-step sign-in is on. */
  code: singleLineText().max(64).optional(),
});
export type AccountDeletionInput = z.output<typeof AccountDeletionBodySchema>;
