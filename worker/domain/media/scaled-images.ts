import type { ScaledImage } from "@shared/contracts/posts";
import { mediaUrl } from "./uploads";

/** The columns of `media` holding a photo's copies 640 and 1280 pixels wide (migration 0018). */
interface ScaledKeys {
  w640_key: string | null;
  w1280_key: string | null;
}

/** A medium's copies as the page offers them (srcset), narrowest first: only for a viewer who may open the file. */
const scaledImagesOf = (row: ScaledKeys): ScaledImage[] => [
  ...(row.w640_key ? [{ width: 640, url: mediaUrl(row.w640_key) }] : []),
  ...(row.w1280_key ? [{ width: 1280, url: mediaUrl(row.w1280_key) }] : []),
];

/** The keys a medium is served from: its file, its copies, and a marked photo's full-size marked copy (migration 0028). */
export interface ServedKeys extends ScaledKeys {
  object_key: string;
  marked_key: string | null;
}

/**
 * The file and the copies (srcset) a viewer who may open the medium gets. A marked photo's copies carry the mark
 * (the uploader's browser drew it into each): everyone but its uploader gets them and the full-size marked copy;
 * the uploader gets the original alone, which /media serves to nobody else (policies/media.ts).
 */
export function servedImageOf(row: ServedKeys, viewerIsUploader: boolean): { url: string; scaled: ScaledImage[] } {
  if (!row.marked_key) return { url: mediaUrl(row.object_key), scaled: scaledImagesOf(row) };
  return viewerIsUploader
    ? { url: mediaUrl(row.object_key), scaled: [] }
    : { url: mediaUrl(row.marked_key), scaled: scaledImagesOf(row) };
}
