/** The account API's shapes (account types, /api/updates) as the page receives them. Plain types only. */

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

/** The four sidebar indicators of spec §3 ("updates summary"), answered by GET /api/updates. */
export interface Updates {
  home: boolean;
  notifications: number;
  messages: number;
  balance: boolean;
}
