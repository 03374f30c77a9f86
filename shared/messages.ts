/**
 * Marks a user-facing sentence: it is a translation key (app/locales/*.json), and a zod issue carrying it keeps
 * it instead of falling back to "Invalid value". scripts/i18n-keys.mjs finds every call of message and t with a literal.
 * `vars` are the variables the sentence always has (a rule's limits, in cents for `{{min, money}}`), which a zod
 * issue cannot carry: the translation of an error fills them in (worker/http/errors.ts).
 */
const known = new Map<string, Readonly<Record<string, string | number>> | undefined>();

export function message<T extends string>(text: T, vars?: Readonly<Record<string, string | number>>): T {
  known.set(text, vars);
  return text;
}

export const isKnownMessage = (text: string) => known.has(text);

/** The variables a sentence always has (none for most). */
export const varsOfMessage = (text: string) => known.get(text);

/** What any field that breaks its rule says when the rule names no sentence of its own (spec §5). */
export const INVALID_VALUE = message("Invalid value");
