import type { ScaledImage } from "@shared/contracts/posts";

/**
 * The srcset of a photo: its copies 640 and 1280 pixels wide (made by the uploader's browser, app/lib/uploads.ts),
 * then the original at its own width when it is wider still; undefined when it has no copies (src alone). With
 * `sizes`, the browser fetches the narrowest that fills the space at the screen's density: a phone's feed a copy,
 * not a 12-megapixel original.
 */
export function srcSetOf(url: string, width: number | null, scaled: readonly ScaledImage[]): string | undefined {
  if (scaled.length === 0) return undefined;
  const entries = scaled.map((copy) => `${copy.url} ${copy.width}w`);
  if (width !== null && width > scaled[scaled.length - 1]!.width) entries.push(`${url} ${width}w`);
  return entries.join(", ");
}

/** How wide a photo is shown: the feed's column (full width on phones), halved in a grid of two. */
export const feedImageSizes = (inGrid: boolean) =>
  inGrid
    ? "(min-width: 1536px) 500px, (min-width: 1025px) 33vw, 50vw"
    : "(min-width: 1536px) 1000px, (min-width: 1025px) 66vw, 100vw";

/** A chat bubble's photo (at most 85% of a phone's width), halved in a grid of two. */
export const bubbleImageSizes = (inGrid: boolean) =>
  inGrid ? "(min-width: 1025px) 20vw, 43vw" : "(min-width: 1025px) 40vw, 85vw";

/** A tile of a conversation's gallery: three to a row, four from 640 pixels. */
export const GALLERY_TILE_SIZES = "(min-width: 640px) 25vw, 33vw";

/** A tile of a profile's Media tab: three to a row of the feed's column. */
export const PROFILE_TILE_SIZES = "(min-width: 1536px) 330px, (min-width: 1025px) 22vw, 33vw";
