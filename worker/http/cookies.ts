import { getCookie } from "hono/cookie";
import type { Context } from "hono";
import { SESSION_LIFETIME_MS } from "../domain/auth/sessions";

/** The server-rendered pages' copy of the session token; `__Host-` pins it to this origin, path / and HTTPS. */
const SESSION_COOKIE = "__Host-session";

export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${SESSION_LIFETIME_MS / 1000}`;
}

export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

export const readSessionCookie = (c: Context) => getCookie(c, SESSION_COOKIE) ?? null;
