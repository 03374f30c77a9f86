import { DAY } from "../shared/time";

/** How long the mailed link (and the ZIP behind it) works. */
export const DOWNLOAD_DAYS = 7;
/** One export a day: building one reads every row and file of the person, which costs the platform. */
export const REQUEST_INTERVAL_MS = DAY;
/** An export still preparing after this long died with its queue message: it stops blocking a new request. */
export const PREPARING_TIMEOUT_MS = DAY;
