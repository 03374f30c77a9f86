import {
  DURATION_TOLERANCE_MS,
  DURATION_TOLERANCE_RATIO,
  RENDITION_SPECS,
  type RenditionName,
} from "@shared/contracts/rendition-specs";
import { message } from "@shared/messages";
import type { VideoFacts } from "../inspect-video";

const NOT_READABLE = message("This rendition is not a video the server can read.");
const WRONG_CODECS = message("A rendition must be H.264 with AAC in MP4, or VP9 or VP8 with Opus in WebM.");
const NOT_FAST_START = message("An MP4 rendition must have its index at the start of the file (fast start).");
const FRAME_TOO_LARGE = message("This rendition's picture is larger than its quality allows.");
const LENGTH_UNKNOWN = message("This rendition does not state its length.");
const LENGTH_INCONSISTENT = message("This rendition's stated length does not match its frames.");
const LENGTH_DIFFERS = message("This rendition is not as long as the original video.");
const BITRATE_TOO_HIGH = message("This rendition uses more bits per second than its quality allows.");

/** Two lengths of one video agree when they differ by at most the larger of a second and 2 % (encoders round). */
export const durationsAgree = (a: number, b: number) =>
  Math.abs(a - b) <= Math.max(DURATION_TOLERANCE_MS, DURATION_TOLERANCE_RATIO * Math.max(a, b));

/** What every browser plays in each container: H.264 + AAC in MP4, VP9 or VP8 + Opus in WebM; no sound is fine. */
const PLAYABLE = {
  mp4: { video: /^avc[13]\.[0-9a-f]{6}$/, audio: /^mp4a\.40\.\d+$/ },
  webm: { video: /^(vp09\.\d\d\.\d\d\.\d\d|vp8)$/, audio: /^opus$/ },
} as const;

/**
 * The most bytes a rendition of a video `durationMs` long may have: its quality's bitrate over the longest length it
 * may have. Without the original's length, what any video may be (the check on completion still applies).
 */
export const maxRenditionBytes = (name: RenditionName, durationMs: number, fallback: number) =>
  durationMs > 0
    ? Math.ceil(
        (RENDITION_SPECS[name].maxBitrate *
          (durationMs + Math.max(DURATION_TOLERANCE_MS, DURATION_TOLERANCE_RATIO * durationMs))) /
          8000,
      )
    : fallback;

/**
 * The rules a rendition's bytes must keep (its facts read by inspectVideo, `size` its bytes): a pair of codecs every
 * browser plays in its container, an MP4 index at the start (else nothing plays before the whole file has arrived),
 * a picture no larger than its quality, a stated length that its frames bear out and that matches the original's
 * (when known), and an average bitrate within its quality's bound. The first rule broken, or null.
 */
export function checkRendition(
  name: RenditionName,
  facts: VideoFacts | null,
  size: number,
  originalDurationMs: number | null,
): string | null {
  if (!facts) return NOT_READABLE;
  const playable = PLAYABLE[facts.container];
  if (!playable.video.test(facts.videoCodec) || (facts.audioCodec !== null && !playable.audio.test(facts.audioCodec)))
    return WRONG_CODECS;
  if (!facts.fastStart) return NOT_FAST_START;
  if (Math.min(facts.width, facts.height) > RENDITION_SPECS[name].shortSide) return FRAME_TOO_LARGE;
  const durationMs = facts.durationMs;
  if (durationMs === null || durationMs <= 0) return LENGTH_UNKNOWN;
  if (
    facts.container === "mp4" &&
    (facts.samplesDurationMs === null || !durationsAgree(durationMs, facts.samplesDurationMs))
  )
    return LENGTH_INCONSISTENT;
  if (originalDurationMs !== null && !durationsAgree(durationMs, originalDurationMs)) return LENGTH_DIFFERS;
  if ((size * 8 * 1000) / durationMs > RENDITION_SPECS[name].maxBitrate) return BITRATE_TOO_HIGH;
  return null;
}
