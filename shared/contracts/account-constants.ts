/**
 * The account types of sign-up, in a zod-free module (the sign-up page loads them): the bodies are in accounts.ts,
 * the answers in session.ts.
 */

/** The twelve account types of spec §1, as stored. The sign-up page lists them. */
export const ACCOUNT_TYPES = [
  "male",
  "female",
  "couple",
  "gay_couple",
  "gay_man",
  "lesbian",
  "lesbian_couple",
  "studio",
  "swinger",
  "transsexual",
  "transsexual_couple",
  "other",
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
