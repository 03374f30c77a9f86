import { safeLocalPath } from "@shared/local-path";

/**
 * Where to go back once a top-up started elsewhere has succeeded (the subscribe dialog's "Top up your wallet": the
 * creator's profile). Kept in this tab's sessionStorage, so it survives the trip to the card form or Stripe and
 * back; it is used once, and forgotten after half an hour.
 */
const KEY = "fanclub-top-up-return";
const LIFETIME_MS = 30 * 60_000;

/**
 * The path if it is one of this site by the one rule of every redirect parameter (shared/local-path.ts), else null
 * (no local path is empty: "" stands for "none").
 */
const localPath = (path: unknown): string | null => safeLocalPath(path, "") || null;

export function rememberTopUpReturn(path: string): void {
  const local = localPath(path);
  if (!local) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path: local, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the top-up simply stays on the wallet.
  }
}

/** The path to return to, once: null when there is none (or it is too old). */
export function takeTopUpReturn(): string | null {
  try {
    const stored = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const { path, at } = (JSON.parse(stored ?? "null") as { path?: unknown; at?: unknown } | null) ?? {};
    if (typeof at !== "number" || Date.now() - at > LIFETIME_MS) return null;
    return localPath(path);
  } catch {
    return null;
  }
}
