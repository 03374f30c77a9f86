/** The account types of sign-up. Plain constants (the sign-up page loads them): the answers are in session.ts. */

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
