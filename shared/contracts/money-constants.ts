/**
 * The money API's plain constants, which the page loads as values (money.ts holds the answers' schemas, which the
 * page may import as types only: a value import would bring zod into its bundle).
 */

export const EARNING_SOURCES = ["subscription", "tip", "post", "message", "live"] as const;
export type EarningSource = (typeof EARNING_SOURCES)[number];

/** What a tip's note may hold. */
export const MAX_TIP_NOTE_LENGTH = 500;

export type SandboxOutcome = "succeeded" | "declined" | "requires_confirmation";

/** The sandbox card form's test numbers (development and test only). Any other valid number is declined. */
export const SANDBOX_CARDS: { number: string; outcome: SandboxOutcome }[] = [
  { number: "4242 4242 4242 4242", outcome: "succeeded" },
  { number: "4000 0000 0000 0002", outcome: "declined" },
  { number: "4000 0025 0000 3155", outcome: "requires_confirmation" },
];
