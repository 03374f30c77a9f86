/**
 * Marks a user-facing sentence: it is a translation key (app/locales/*.json), and a zod issue carrying it keeps
 * it instead of falling back to "Invalid value". scripts/i18n-keys.mjs finds every call of message and t with a literal.
 */
const known = new Set<string>();

export function message<T extends string>(text: T): T {
  known.add(text);
  return text;
}

export const isKnownMessage = (text: string) => known.has(text);
