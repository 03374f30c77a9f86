import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";

/*
 * The rules of what people type and the ids they send, shared by every request body (shared/contracts) and the
 * Worker's form actions.
 */

/**
 * Control characters (Unicode Cc: C0, DEL, C1) have no place in anything a person types: a NUL breaks the database's
 * length checks and the password hasher, the others are invisible traps. Every text field is built from one of
 * the two schemas below, so the API and the form actions refuse them alike, saying what the field allows.
 */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** Multi-line text keeps what a textarea sends: line breaks (\n, \r) and tabs. */
const CONTROL_CHARACTER_BUT_LAYOUT = /(?![\t\n\r])\p{Cc}/u;
/** Half of a character (a UTF-16 surrogate without its pair): a JSON `\ud800` escape; no UTF-8 text can hold one. */
export const LONE_SURROGATE = /\p{Cs}/u;

export const BROKEN_TEXT = message("This text contains a character that is not valid Unicode. Please type it again.");
const CONTROL_IN_LINE = message("This field may not contain control characters, tabs or line breaks.");
const CONTROL_IN_TEXT = message("This text may not contain control characters; only line breaks and tabs are allowed.");

type StringParams = Parameters<typeof z.string>[0];

const wellFormed = (params?: StringParams) =>
  z.string(params).refine((text) => !LONE_SURROGATE.test(text), { message: BROKEN_TEXT, abort: true });

/** One line of text: a name, a password, a search term, a token. No control characters at all. */
export const singleLineText = (params?: StringParams) =>
  wellFormed(params).refine((text) => !CONTROL_CHARACTER.test(text), { message: CONTROL_IN_LINE, abort: true });

/** Text that may span lines (a post, a bio, a comment, a note): line breaks and tabs, no other control characters. */
export const multilineText = (params?: StringParams) =>
  wellFormed(params).refine((text) => !CONTROL_CHARACTER_BUT_LAYOUT.test(text), {
    message: CONTROL_IN_TEXT,
    abort: true,
  });

/**
 * Characters that change how a name reads without being seen (spoofing): the bidirectional controls (overrides,
 * isolates, marks) and the default-ignorable characters (zero-width spaces, the BOM, soft hyphens, Hangul fillers),
 * but for the variation selectors (Mongolian's too), the tags of a flag and the joiners that emoji and some scripts
 * (Persian, Hindi) need, the joiners only between two visible characters.
 */
const INVISIBLE_CHARACTER =
  /(?!\u200C|\u200D|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|[\u180B-\u180D\u180F])[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;
/** A flag written with tag characters (Scotland, England, Wales: the black flag, tags, the cancel tag): visible as one. */
const TAG_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const STRAY_JOINER = /(?:^|[\s\u200C\u200D])[\u200C\u200D]|[\u200C\u200D](?:$|\s)/u;
const INVISIBLE_IN_NAME = message("Names may not contain invisible characters or text-direction controls.");

/** A name people see beside a username (a display name): one line of visible characters. */
export const visibleNameText = (params?: StringParams) =>
  singleLineText(params).refine(
    (text) => !INVISIBLE_CHARACTER.test(text.replace(TAG_FLAG, "\u{1F3F4}")) && !STRAY_JOINER.test(text),
    {
      message: INVISIBLE_IN_NAME,
      abort: true,
    },
  );

/**
 * A row id written as text (a path parameter, a form field, a route segment): decimal digits only, no sign, no
 * spaces, no leading zero, at least 1 and at most Number.MAX_SAFE_INTEGER. `Number()` alone would read " 7",
 * "07", "7.0", "0x7" and "7e0" all as 7.
 */
const ID_PATTERN = /^[1-9]\d{0,15}$/;
export const idText = z
  .string()
  .regex(ID_PATTERN, { message: INVALID_VALUE })
  .transform(Number)
  .refine(Number.isSafeInteger, { message: INVALID_VALUE });

/**
 * A position in a sequence written as text (a message's seq to catch up after): like idText, but 0 is allowed and
 * means "before the first", so an empty thread catches up from the start.
 */
export const positionText = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})$/, { message: INVALID_VALUE })
  .transform(Number)
  .refine(Number.isSafeInteger, { message: INVALID_VALUE });

/** A row id sent as a JSON number (mediaId, targetId): a positive safe integer. */
export const idNumber = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The id a client gives what it sends (a message, a comment): the same id twice from one person stores one
 * (resends, the offline outbox).
 */
export const ClientIdSchema = z
  .string({ message: INVALID_VALUE })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { message: INVALID_VALUE });

/** A positive integer that arrives as a JSON number (the API) or as text (a link's URL): the parts of signed links. */
export const idNumberOrText = z.union([idNumber, idText]);
