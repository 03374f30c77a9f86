/**
 * Where to go back once a top-up started elsewhere has succeeded (the subscribe dialog's "Top up your wallet": the
 * creator's profile). Kept in this tab's sessionStorage, so it survives the trip to the card form or Stripe and
 * back; it is used once, and forgotten after half an hour.
 */
const KEY = "fanclub-top-up-return";
const LIFETIME_MS = 30 * 60_000;

/** A path of this site only: never another origin ("//host", "/\host"). */
const isLocalPath = (path: string) => /^\/(?![/\\])[^\s]*$/.test(path);

export function rememberTopUpReturn(path: string): void {
  if (!isLocalPath(path)) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the top-up simply stays on the wallet.
  }
}

/** The path to return to, once: null when there is none (or it is too old). */
export function takeTopUpReturn(): string | null {
  try {
    const stored = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const { path, at } = JSON.parse(stored ?? "null") as { path?: unknown; at?: unknown } | null ?? {};
    if (typeof path !== "string" || typeof at !== "number" || Date.now() - at > LIFETIME_MS || !isLocalPath(path)) return null;
    return path;
  } catch {
    return null;
  }
}
