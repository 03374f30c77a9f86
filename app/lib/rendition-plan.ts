/**
 * What the uploader's browser makes of a video (app/lib/video-renditions.ts does the making): which renditions,
 * at which size, in which container and codecs. Pure, so that the choices are tested without a browser.
 */
import {
  MIN_SOURCE_SHORT_SIDE,
  RENDITION_NAMES,
  RENDITION_SPECS,
  type RenditionName,
} from "@shared/contracts/rendition-specs";

export interface PlannedRendition {
  name: RenditionName;
  width: number;
  height: number;
  videoBitrate: number;
  audioBitrate: number;
}

/** H.264 and VP9 encoders work on whole 2×2 blocks of chroma: both sides even. */
const even = (pixels: number) => Math.max(2, 2 * Math.round(pixels / 2));

/**
 * The renditions to make of a source `width`×`height` (as displayed, rotation applied), lowest first: each scaled
 * so that its shorter side is the spec's, never up (a small source's 360p keeps its own size: what it gains is the
 * low bitrate and the fast start). A rendition whose source is too small for it (MIN_SOURCE_SHORT_SIDE) is skipped.
 */
export function plannedRenditions(width: number, height: number): PlannedRendition[] {
  const shortSide = Math.min(width, height);
  if (!(shortSide > 0)) return [];
  return RENDITION_NAMES.filter((name) => shortSide > MIN_SOURCE_SHORT_SIDE[name]).map((name) => {
    const spec = RENDITION_SPECS[name];
    const scale = Math.min(1, spec.shortSide / shortSide);
    return {
      name,
      width: even(width * scale),
      height: even(height * scale),
      videoBitrate: spec.videoBitrate,
      audioBitrate: spec.audioBitrate,
    };
  });
}

/** What the browser's WebCodecs (with mediabunny) can encode, natively. */
export interface EncoderSupport {
  avc: boolean;
  aac: boolean;
  vp9: boolean;
  opus: boolean;
}

export type OutputChoice =
  /** `wasmAac`: the browser cannot encode AAC itself, so @mediabunny/aac-encoder is loaded and registered. */
  | { container: "mp4"; contentType: "video/mp4"; video: "avc"; audio: "aac"; wasmAac: boolean }
  | { container: "webm"; contentType: "video/webm"; video: "vp9"; audio: "opus"; wasmAac: false };

/**
 * Fast-start MP4 with H.264 + AAC wherever the browser can encode H.264 (every phone plays it; AAC comes from the
 * WASM encoder where the browser has none), else WebM with VP9 + Opus; null when neither can be made (the original
 * alone goes). A video without sound needs no audio encoder.
 */
export function chooseOutput(support: EncoderSupport, hasAudio: boolean): OutputChoice | null {
  if (support.avc)
    return {
      container: "mp4",
      contentType: "video/mp4",
      video: "avc",
      audio: "aac",
      wasmAac: hasAudio && !support.aac,
    };
  if (support.vp9 && (support.opus || !hasAudio))
    return { container: "webm", contentType: "video/webm", video: "vp9", audio: "opus", wasmAac: false };
  return null;
}

/** About how many bytes the renditions will have, from their bitrates (for the upload's progress until they exist). */
export const expectedBytes = (renditions: PlannedRendition[], seconds: number) =>
  Math.round(renditions.reduce((total, r) => total + ((r.videoBitrate + r.audioBitrate) * seconds) / 8, 0));
