/** The clock, in one place so that tests and the domain agree on "now". */
export const now = () => new Date();
export const isoNow = () => now().toISOString();
export const isoIn = (ms: number) => new Date(now().getTime() + ms).toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
