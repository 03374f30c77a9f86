/** A piece of a message's text: plain, or a web address that may become a link. */
export type TextPart = { text: string } | { text: string; href: string };

/** Candidates: from "http(s)://" to the next space; what the browser would not take is dropped in `safeHref`. */
const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Punctuation that ends a sentence more often than an address ("see https://a.example/x."). */
const TRAILING_PUNCTUATION = /[.,;:!?')\]}]+$/;

/** The address as an href when it parses as http or https; anything else (javascript:, data:…) stays text. */
function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits a message's text into plain parts and http(s) links, in order; joined, the parts are the text. Pure. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plainFrom = 0;
  for (const match of text.matchAll(URL_CANDIDATE)) {
    const address = match[0].replace(TRAILING_PUNCTUATION, "");
    const href = safeHref(address);
    if (href === null) continue;
    const start = match.index;
    if (start > plainFrom) parts.push({ text: text.slice(plainFrom, start) });
    parts.push({ text: address, href });
    plainFrom = start + address.length;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom) });
  return parts;
}
