/**
 * The mark on a creator's photos as fans see them (docs/decisions/watermarks.md): the creator's profile address,
 * drawn by the uploader's browser (app/lib/watermark.ts) into every copy fans get, and shown in Settings' preview.
 * Pure and zod-free: the page, the Worker and the tests share it.
 */

/** The text of the mark: the profile's address without its scheme, "example.com/alice". */
export const watermarkText = (origin: string, username: string) => `${new URL(origin).host}/${username}`;

/** Readable on light and dark pictures alike, without hiding them: half-transparent white on a soft dark shadow. */
export const WATERMARK_FILL = "rgba(255, 255, 255, 0.7)";
export const WATERMARK_SHADOW = "rgba(0, 0, 0, 0.6)";
export const WATERMARK_FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
export const WATERMARK_FONT_WEIGHT = 600;

/** The font size as a share of the picture's shorter side, and the margin to its edges. */
const FONT_SHARE = 0.045;
const MARGIN_SHARE = 0.03;
/** The mark never takes more than this share of the picture's width. */
const MAX_WIDTH_SHARE = 0.6;
const MIN_FONT_PX = 6;

/**
 * The longest side of a full-size marked copy: Safari draws no canvas over 16.7 million pixels (4096²), and a phone's
 * photo may have 24 or 48 million. A bigger photo's marked copy is drawn at this size, the same shape.
 */
const MAX_MARKED_SIDE = 4096;

/** The pixel size the full-size marked copy of a photo `width`×`height` (as displayed) has: the browser draws it so, the server holds it to that. */
export function markedSizeOf(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_MARKED_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export interface WatermarkLayout {
  /** In pixels of the picture. */
  fontSize: number;
  /** Where the text's right end and its bottom (textAlign "right", textBaseline "bottom") are drawn. */
  x: number;
  y: number;
  shadowBlur: number;
  shadowOffset: number;
}

/**
 * Where the mark goes on a picture `width`×`height`: in its bottom right corner, whatever the page's direction
 * (the picture is not mirrored, so neither is its mark), at a size relative to the picture, so each copy (640,
 * 1280 wide, full size) shows the same mark scaled. `textWidthPerPx`: the text's width at a font size of 1 pixel,
 * as measured in the font it is drawn in; a long address gets smaller rather than cross the picture.
 */
export function watermarkLayout(width: number, height: number, textWidthPerPx: number): WatermarkLayout {
  const shorter = Math.min(width, height);
  const margin = Math.max(2, Math.round(shorter * MARGIN_SHARE));
  const bySide = shorter * FONT_SHARE;
  const byWidth = (width * MAX_WIDTH_SHARE) / Math.max(textWidthPerPx, 0.01);
  const fontSize = Math.max(MIN_FONT_PX, Math.floor(Math.min(bySide, byWidth)));
  return {
    fontSize,
    x: width - margin,
    y: height - margin,
    shadowBlur: Math.max(1, Math.round(fontSize / 4)),
    shadowOffset: Math.max(1, Math.round(fontSize / 16)),
  };
}
