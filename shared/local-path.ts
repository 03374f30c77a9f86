/** The longest path a redirect parameter may name; a longer one is not a link of this site. */
const MAX_LOCAL_PATH = 2048;
const PROBE_ORIGIN = "https://local.invalid";

/**
 * Where a redirect parameter (`redirectTo`, a page's `back`) may send a person: a path of this site that the URL
 * parser reads back exactly as written. Anything else goes to `fallback`: another origin, `//host`, `/\host`, and a
 * path the parser would change (a tab or line break it drops, which turned `/<TAB>/evil.example` into
 * `//evil.example`; a NUL or a non-ASCII character it would encode, which a Location header cannot carry). The one
 * rule of every redirect parameter, page side and Worker side alike.
 */
export function safeLocalPath(value: unknown, fallback = "/home"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > MAX_LOCAL_PATH) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN || `${url.pathname}${url.search}${url.hash}` !== value) return fallback;
  return value;
}
