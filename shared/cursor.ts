/**
 * Keyset pagination over (published_at, id) descending: the cursor names the last item shown, so rows
 * published meanwhile never shift or repeat a page. Opaque to clients ("{published_at}~{id}", base64url);
 * the page makes one too, for "newer than the newest post shown".
 */
export interface Cursor {
  at: string;
  id: number;
}

export const encodeCursor = (at: string, id: number) =>
  btoa(`${at}~${id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** null for anything malformed: the caller then answers a 422. */
export function decodeCursor(value: string): Cursor | null {
  try {
    const text = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z)~([1-9]\d{0,15})$/.exec(text);
    return match ? { at: match[1]!, id: Number(match[2]) } : null;
  } catch {
    return null;
  }
}
