/**
 * How a language writes US dollars, read by the server from two amounts it formatted (MONEY_SAMPLE_CENTS) and handed
 * to the browser with the root's data, so the browser writes any amount the same way without `Intl`: the first `Intl.NumberFormat` a browser builds loads ICU's
 * data, 80–185 ms on an emulated phone, and while a page hydrates that sits in its long task. The samples hold every
 * digit, several groups and a four-digit whole (whether such a whole is grouped: "1234,56 US$" in Spanish), so the
 * pattern covers the numbering system's digits, the symbol's place and spacing, the group and decimal separators,
 * the group sizes (India's 12,34,567) and the minimum grouping. A pattern is written for amounts of zero and more;
 * anything it cannot account for is null, and the caller formats with `Intl`.
 */

/** $1,234,567,890.12 and $1,234.56. */
export const MONEY_SAMPLE_CENTS = [123_456_789_012, 123_456] as const;
const SAMPLE_DIGITS = "123456789012";

export interface MoneyPattern {
  prefix: string;
  suffix: string;
  /** The language's digit for 0–9. */
  digits: string[];
  decimal: string;
  /** "" when the language does not group. */
  group: string;
  /** The last group's size, and the size of those before it. */
  primary: number;
  secondary: number;
  /** A whole of primary + minimumGrouping digits or more is grouped. */
  minimumGrouping: number;
}

const DIGIT = /\p{Nd}/u;

/** The digit runs and the separators between them of the number inside `text`, with what is around it. */
function split(text: string): { prefix: string; suffix: string; runs: string[]; separators: string[] } | null {
  const chars = [...text];
  const first = chars.findIndex((char) => DIGIT.test(char));
  const last = chars.findLastIndex((char) => DIGIT.test(char));
  if (first < 0) return null;
  const runs: string[] = [];
  const separators: string[] = [];
  let run = "";
  let separator = "";
  for (const char of chars.slice(first, last + 1)) {
    if (DIGIT.test(char)) {
      if (separator) {
        separators.push(separator);
        separator = "";
      }
      run += char;
    } else {
      if (run) {
        runs.push(run);
        run = "";
      }
      separator += char;
    }
  }
  runs.push(run);
  return { prefix: chars.slice(0, first).join(""), suffix: chars.slice(last + 1).join(""), runs, separators };
}

/** The pattern of `samples` (the formatted MONEY_SAMPLE_CENTS, in order), or null if they do not read as expected. */
export function moneyPattern(samples: readonly string[] | null | undefined): MoneyPattern | null {
  if (!samples || samples.length !== 2) return null;
  const big = split(samples[0]!);
  const small = split(samples[1]!);
  if (!big || !small || big.prefix !== small.prefix || big.suffix !== small.suffix) return null;
  const bigDigits = [...big.runs.join("")];
  if (bigDigits.length !== SAMPLE_DIGITS.length || big.runs.at(-1)!.length !== 2 || big.runs.length < 2) return null;
  const digits: string[] = [];
  for (const [index, latin] of [...SAMPLE_DIGITS].entries()) {
    const known = digits[Number(latin)];
    if (known !== undefined && known !== bigDigits[index]) return null;
    digits[Number(latin)] = bigDigits[index]!;
  }
  const decimal = big.separators.at(-1)!;
  const wholeRuns = big.runs.slice(0, -1);
  const groupSeparators = big.separators.slice(0, -1);
  const group = groupSeparators[0] ?? "";
  if (groupSeparators.some((separator) => separator !== group)) return null;
  const primary = wholeRuns.length > 1 ? wholeRuns.at(-1)!.length : Infinity;
  const secondary = wholeRuns.length > 2 ? wholeRuns.at(-2)!.length : primary;
  if (wholeRuns.slice(1, -1).some((run) => run.length !== secondary)) return null;
  // The small sample's whole has four digits: grouped, the minimum is 1; not, at least 2.
  const smallWhole = small.runs.slice(0, -1);
  const minimumGrouping = smallWhole.length > 1 ? 1 : 2;
  if (small.separators.at(-1) !== decimal || (smallWhole.length > 1 && small.separators[0] !== group)) return null;
  const pattern = {
    prefix: big.prefix,
    suffix: big.suffix,
    digits,
    decimal,
    group,
    primary,
    secondary,
    minimumGrouping,
  };
  // What the pattern writes for the samples must be the samples themselves.
  return formatWithPattern(pattern, MONEY_SAMPLE_CENTS[0]) === samples[0] &&
    formatWithPattern(pattern, MONEY_SAMPLE_CENTS[1]) === samples[1]
    ? pattern
    : null;
}

/** Patterns the browser was given, by language (app/root.tsx, from the root loader's data). */
const learntPatterns = new Map<string, MoneyPattern>();

/**
 * The pattern the server read from its own samples, for formatCents to write `language`'s amounts without Intl
 * from now on (the browser only: the root component gives it before any amount renders). Null teaches nothing.
 */
export function learnMoneyPattern(language: string, pattern: MoneyPattern | null | undefined): void {
  if (pattern && !learntPatterns.has(language)) learntPatterns.set(language, pattern);
}

export const learntMoneyPattern = (language: string): MoneyPattern | undefined => learntPatterns.get(language);

/** `cents` (a whole number, zero or more) as the pattern writes it; null for anything else. */
export function formatWithPattern(pattern: MoneyPattern, cents: number): string | null {
  if (!Number.isSafeInteger(cents) || cents < 0) return null;
  const whole = String(Math.floor(cents / 100));
  const fraction = String(cents % 100).padStart(2, "0");
  let grouped = whole;
  if (pattern.group && whole.length >= pattern.primary + pattern.minimumGrouping) {
    const parts = [whole.slice(-pattern.primary)];
    let rest = whole.slice(0, -pattern.primary);
    while (rest.length > pattern.secondary) {
      parts.unshift(rest.slice(-pattern.secondary));
      rest = rest.slice(0, -pattern.secondary);
    }
    if (rest) parts.unshift(rest);
    grouped = parts.join(pattern.group);
  }
  const localDigits = (text: string) => text.replace(/[0-9]/g, (digit) => pattern.digits[Number(digit)]!);
  return `${pattern.prefix}${localDigits(grouped)}${pattern.decimal}${localDigits(fraction)}${pattern.suffix}`;
}
