import {
  WATERMARK_FILL,
  WATERMARK_FONT_FAMILY,
  WATERMARK_FONT_WEIGHT,
  WATERMARK_SHADOW,
  watermarkLayout,
} from "@shared/watermark";

/** The font size the text is measured at, to scale it (shared/watermark.ts watermarkLayout). */
const MEASURE_PX = 100;

/**
 * Draws the mark `text` (a creator's profile address) on a canvas already holding a picture `width`×`height`, in
 * its bottom right corner. Left to right whatever the page's direction: a canvas inherits its document's, which
 * in Arabic would put the address's "/" first and the text's end on the left.
 */
export function drawWatermark(draw: CanvasRenderingContext2D, width: number, height: number, text: string) {
  draw.save();
  draw.direction = "ltr";
  draw.textAlign = "right";
  draw.textBaseline = "bottom";
  draw.font = `${WATERMARK_FONT_WEIGHT} ${MEASURE_PX}px ${WATERMARK_FONT_FAMILY}`;
  const layout = watermarkLayout(width, height, draw.measureText(text).width / MEASURE_PX);
  draw.font = `${WATERMARK_FONT_WEIGHT} ${layout.fontSize}px ${WATERMARK_FONT_FAMILY}`;
  draw.fillStyle = WATERMARK_FILL;
  draw.shadowColor = WATERMARK_SHADOW;
  draw.shadowBlur = layout.shadowBlur;
  draw.shadowOffsetX = layout.shadowOffset;
  draw.shadowOffsetY = layout.shadowOffset;
  draw.fillText(text, layout.x, layout.y);
  draw.restore();
}
