/** The session token of spec §1/§7, kept in localStorage under "token". */
const TOKEN_KEY = "token";

export function readToken(): string | null {
  // On the server there is no localStorage: answering at once spares every server render a thrown ReferenceError
  // (its stack trace cost about 3% of a /home render's CPU).
  if (typeof localStorage === "undefined") return null;
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken() {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to forget.
  }
}
