/**
 * The reader's time zone, told to the server by the browser in this cookie (an IANA name, set by
 * app/components/local-time.tsx), so that a page renders its dates in it from the start.
 */
export const TIME_ZONE_COOKIE = "tz";
