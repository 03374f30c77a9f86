import {
  ebmlUint,
  elements,
  INFO,
  mvhdDurationMs,
  topLevelBoxes,
  viewOf,
  webmHead,
  type ReadRange,
} from "./video-containers";

export type { ReadRange };

const MOOV_HEAD_BYTES = 64 * 1024;
export const WEBM_HEAD_BYTES = 64 * 1024;

/**
 * A video's length as its file states it, read with a few small range reads (never the whole file): MP4 and
 * QuickTime from the movie header ('mvhd' inside 'moov', wherever 'moov' sits), WebM from the segment's Info
 * (Duration × TimecodeScale). Null when the file does not say: a browser's MediaRecorder writes WebM without a
 * Duration, for one.
 */
export async function videoDurationMs(read: ReadRange, size: number, contentType: string): Promise<number | null> {
  if (contentType === "video/webm") return webmDurationMs(await read(0, Math.min(size, WEBM_HEAD_BYTES)));
  return mp4DurationMs(read, size);
}

/** Walks the top-level boxes by their headers to 'moov', then its children to 'mvhd'. */
async function mp4DurationMs(read: ReadRange, size: number): Promise<number | null> {
  for await (const box of topLevelBoxes(read, size)) {
    if (box.type === "moov")
      return mvhdDurationMs(await read(box.start, Math.min(box.end - box.start, MOOV_HEAD_BYTES, size - box.start)));
  }
  return null;
}

const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

/** The segment's Info: Duration is in TimecodeScale units (ns, 1 ms by default). */
export function webmDurationMs(bytes: Uint8Array): number | null {
  const info = webmHead(bytes)?.children.find((child) => child.id === INFO);
  if (!info) return null;
  const view = viewOf(bytes);
  let scale = 1_000_000;
  let duration: number | null = null;
  for (const child of elements(bytes, info.body, info.end)) {
    if (child.end > bytes.length) break;
    if (child.id === TIMECODE_SCALE) scale = ebmlUint(bytes, child);
    else if (child.id === DURATION) {
      if (child.end - child.body === 8) duration = view.getFloat64(child.body);
      else if (child.end - child.body === 4) duration = view.getFloat32(child.body);
    }
  }
  return duration === null || !Number.isFinite(duration) ? null : Math.round((duration * scale) / 1_000_000);
}
