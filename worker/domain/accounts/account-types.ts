/** The twelve account types of spec §1, as stored. Dependency-free: the sign-up page imports it too. */
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
