/**
 * A video's renditions, as plain constants the page may import (no zod): copies made in the uploader's browser
 * (app/lib/video-renditions.ts) that phones play instead of the original, checked by the server when they arrive
 * (worker/domain/media/renditions) and served under the original's rule. The schemas are in ./renditions.ts.
 */
/** The renditions a video may have, lowest first. */
export const RENDITION_NAMES = ["360p", "720p"] as const;
export type RenditionName = (typeof RENDITION_NAMES)[number];

export interface RenditionSpec {
  /** The most pixels of the frame's shorter side (a portrait video's width). */
  shortSide: number;
  /** What the browser asks its encoder for, in bits per second. */
  videoBitrate: number;
  audioBitrate: number;
  /** The most the server accepts, over the whole file (container, audio and the encoder's overshoot included). */
  maxBitrate: number;
}

export const RENDITION_SPECS: Record<RenditionName, RenditionSpec> = {
  "360p": { shortSide: 360, videoBitrate: 500_000, audioBitrate: 64_000, maxBitrate: 1_000_000 },
  "720p": { shortSide: 720, videoBitrate: 2_000_000, audioBitrate: 128_000, maxBitrate: 3_500_000 },
};

/** A rendition is made only from a source whose shorter side is above this (720p from a 480p phone video would only grow). */
export const MIN_SOURCE_SHORT_SIDE: Record<RenditionName, number> = { "360p": 0, "720p": 540 };

/** How far a rendition's length may differ from the original's: the larger of these. */
export const DURATION_TOLERANCE_MS = 1000;
export const DURATION_TOLERANCE_RATIO = 0.02;

/** The containers a rendition may come in: fast-start MP4 (H.264 + AAC) or WebM (VP9 or VP8 + Opus). */
export const RENDITION_CONTENT_TYPES = ["video/mp4", "video/webm"] as const;
