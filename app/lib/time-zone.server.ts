import { TIME_ZONE_COOKIE } from "@shared/time-zone";

const COOKIE = new RegExp(`(?:^|;\\s*)${TIME_ZONE_COOKIE}=([A-Za-z0-9_+\\-/]{1,64})(?:;|$)`);

/** Zones already checked (valid or not): a request does not build a formatter to check its cookie. */
const checked = new Map<string, boolean>();
const CHECKED_AT_MOST = 1_000;

/**
 * The zone named by the request's time zone cookie if the runtime knows it, else null (the page then renders UTC
 * and the browser switches to local time after hydration). Anything else in the cookie is ignored, never an error.
 */
export function readerTimeZone(request: Request): string | null {
  const zone = COOKIE.exec(request.headers.get("Cookie") ?? "")?.[1];
  if (zone === undefined) return null;
  let valid = checked.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    if (checked.size >= CHECKED_AT_MOST) checked.clear();
    checked.set(zone, valid);
  }
  return valid ? zone : null;
}
