/**
 * The widths of the copies of a photo: made by the uploader's browser (app/lib/uploads.ts), kept by the server. Apart
 * from posts.ts, whose schemas the browser must not load.
 */
export const SCALED_WIDTHS = [640, 1280] as const;
