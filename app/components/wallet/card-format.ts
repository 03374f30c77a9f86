/**
 * The sandbox card form's fields written as the person types (pure, for the form's input handler): the number in
 * groups of four, the expiry as MM/YY with the slash put in for them (a number keypad has none). Each answers the
 * new text and where the caret goes: after the same digits it followed before.
 */
export interface FieldEdit {
  value: string;
  caret: number;
}

const MAX_CARD_DIGITS = 19;

const digitsIn = (text: string) => text.replace(/\D/g, "");

/** The position just after the `count`-th digit of `value` (0: its start). */
function afterDigits(value: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    if (/\d/.test(value[i]!)) seen += 1;
    if (seen === count) return i + 1;
  }
  return value.length;
}

/** "4242424242424242" → "4242 4242 4242 4242"; anything but digits is dropped, at most 19 digits. */
export function formatCardNumber(text: string, caret: number = text.length): FieldEdit {
  const digits = digitsIn(text).slice(0, MAX_CARD_DIGITS);
  const value = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
  return { value, caret: afterDigits(value, Math.min(digitsIn(text.slice(0, caret)).length, digits.length)) };
}

/**
 * "1229" → "12/29"; "12" → "12/" while typing (not while deleting, so the slash can be taken back); a first digit
 * from 2 to 9 can only start a month: "4" → "04/".
 */
export function formatExpiry(text: string, caret: number = text.length, deleting = false): FieldEdit {
  let digits = digitsIn(text);
  let before = digitsIn(text.slice(0, caret)).length;
  if (!deleting && digits.length === 1 && /[2-9]/.test(digits)) {
    digits = `0${digits}`;
    before += 1;
  }
  digits = digits.slice(0, 4);
  const value =
    digits.length > 2 || (digits.length === 2 && !deleting) ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  before = Math.min(before, digits.length);
  // Right after the month, the caret goes past the slash, where the year's digits come.
  const position = before === 2 && value.length > 2 ? 3 : afterDigits(value, before);
  return { value, caret: position };
}
