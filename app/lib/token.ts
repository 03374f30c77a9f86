/** The session token of spec §1/§7, kept in localStorage under "token". */
export const TOKEN_KEY = "token";

export function readToken(): string | null {
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
