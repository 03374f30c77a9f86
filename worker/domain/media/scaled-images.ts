import type { ScaledImage } from "@shared/contracts/posts";
import { mediaUrl } from "./uploads";

/** The columns of `media` holding a photo's copies 640 and 1280 pixels wide (migration 0018). */
export interface ScaledKeys {
  w640_key: string | null;
  w1280_key: string | null;
}

/** A medium's copies as the page offers them (srcset), narrowest first: only for a viewer who may open the file. */
export const scaledImagesOf = (row: ScaledKeys): ScaledImage[] => [
  ...(row.w640_key ? [{ width: 640, url: mediaUrl(row.w640_key) }] : []),
  ...(row.w1280_key ? [{ width: 1280, url: mediaUrl(row.w1280_key) }] : []),
];
