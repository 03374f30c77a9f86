import { parse } from "hono/utils/cookie";
import { TRUSTED_DEVICE_LIFETIME_MS } from "../domain/auth/trusted-devices";

/**
 * "Trust this device for 30 days" (two-step sign-in): a random token whose hash the account keeps. `__Host-` pins
 * it to this origin, path / and HTTPS; HttpOnly keeps it from scripts.
 */
const TRUSTED_DEVICE_COOKIE = "__Host-trusted-device";

export const trustedDeviceCookie = (token: string) =>
  `${TRUSTED_DEVICE_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${TRUSTED_DEVICE_LIFETIME_MS / 1000}`;

/** The device's trust token from a request's Cookie header, if it has one. */
export const readTrustedDevice = (request: Request): string | null =>
  parse(request.headers.get("Cookie") ?? "", TRUSTED_DEVICE_COOKIE)[TRUSTED_DEVICE_COOKIE] ?? null;
