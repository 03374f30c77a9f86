import type { MediaKind } from "./file-types";
import { SCALED_WIDTHS } from "@shared/contracts/scaled-widths";

const MIB = 1024 * 1024;

/** Upload limits (docs/decisions/uploads.md). */
export const MAX_IMAGE_BYTES = 20 * MIB;
export const MAX_VIDEO_BYTES = 2 * 1024 * MIB;
export const MAX_MEDIA_PER_POST = 20;
/** Every part but the last has exactly this size (R2 needs at least 5 MiB for all parts but the last). */
export const PART_SIZE = 8 * MIB;
/** Made by the browser: a poster frame of a video, and a tiny blurred preview for locked posts. */
export const MAX_POSTER_BYTES = 1 * MIB;
export const MAX_PREVIEW_BYTES = 64 * 1024;
/** Also made by the browser: copies of a photo 640 and 1280 pixels wide, which phones load instead of the original. */
export type ScaledWidth = (typeof SCALED_WIDTHS)[number];
export const MAX_SCALED_BYTES: Record<ScaledWidth, number> = { 640: 512 * 1024, 1280: 2 * MIB };

export const maxBytesOf = (kind: MediaKind) => (kind === "image" ? MAX_IMAGE_BYTES : MAX_VIDEO_BYTES);

export const partCountOf = (size: number) => Math.max(1, Math.ceil(size / PART_SIZE));

/** The exact length part `partNumber` (1-based) of a file of `size` bytes must have. */
export function expectedPartSize(size: number, partNumber: number): number {
  const count = partCountOf(size);
  return partNumber < count ? PART_SIZE : size - (count - 1) * PART_SIZE;
}
