/**
 * A video's length as its file states it, read with a few small range reads (never the whole file): MP4 and
 * QuickTime from the movie header ('mvhd' inside 'moov', wherever 'moov' sits), WebM from the segment's Info
 * (Duration × TimecodeScale). Null when the file does not say: a browser's MediaRecorder writes WebM without a
 * Duration, for one.
 */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

const MAX_TOP_LEVEL_BOXES = 32;
const MOOV_HEAD_BYTES = 64 * 1024;
const WEBM_HEAD_BYTES = 64 * 1024;

const ascii = (bytes: Uint8Array, at: number) =>
  String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

export async function videoDurationMs(read: ReadRange, size: number, contentType: string): Promise<number | null> {
  if (contentType === "video/webm") return webmDurationMs(await read(0, Math.min(size, WEBM_HEAD_BYTES)));
  return mp4DurationMs(read, size);
}

/** Walks the top-level boxes by their headers to 'moov', then its children to 'mvhd'. */
async function mp4DurationMs(read: ReadRange, size: number): Promise<number | null> {
  let offset = 0;
  for (let i = 0; i < MAX_TOP_LEVEL_BOXES && offset + 8 <= size; i++) {
    const header = await read(offset, Math.min(16, size - offset));
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    let boxSize = view.getUint32(0);
    const type = ascii(header, 4);
    if (boxSize === 1 && header.length >= 16) boxSize = Number(view.getBigUint64(8));
    else if (boxSize === 0) boxSize = size - offset;
    if (boxSize < 8) return null;
    if (type === "moov") return mvhdDurationMs(await read(offset, Math.min(boxSize, MOOV_HEAD_BYTES, size - offset)));
    offset += boxSize;
  }
  return null;
}

function mvhdDurationMs(moov: Uint8Array): number | null {
  const view = new DataView(moov.buffer, moov.byteOffset, moov.byteLength);
  let at = 8;
  while (at + 8 <= moov.length) {
    const childSize = view.getUint32(at);
    if (ascii(moov, at + 4) === "mvhd") {
      const body = at + 8;
      const version = moov[body];
      if (version === 1 && body + 32 <= moov.length)
        return toMs(Number(view.getBigUint64(body + 24)), view.getUint32(body + 20));
      if (version === 0 && body + 20 <= moov.length) return toMs(view.getUint32(body + 16), view.getUint32(body + 12));
      return null;
    }
    if (childSize < 8) return null;
    at += childSize;
  }
  return null;
}

const toMs = (duration: number, timescale: number) =>
  timescale > 0 ? Math.round((duration * 1000) / timescale) : null;

/** An EBML variable-length number at `at`: its value and length; ids keep their marker bit, sizes drop it. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i]!;
  return { value, length };
}

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

/** EBML header, then Segment, then its first children up to Info; Duration is in TimecodeScale units (ns). */
export function webmDurationMs(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let end = bytes.length;
  while (at < end) {
    const id = vint(bytes, at, true);
    const size = id && vint(bytes, at + id.length, false);
    if (!id || !size) return null;
    if (id.value !== EBML_HEADER && at === 0) return null;
    const body = at + id.length + size.length;
    if (id.value === SEGMENT) {
      // Enter the segment (its size may be "unknown": all ones).
      at = body;
      continue;
    }
    if (id.value === INFO) {
      at = body;
      end = Math.min(bytes.length, body + size.value);
      let scale = 1_000_000;
      let duration: number | null = null;
      while (at < end) {
        const childId = vint(bytes, at, true);
        const childSize = childId && vint(bytes, at + childId.length, false);
        if (!childId || !childSize) break;
        const value = at + childId.length + childSize.length;
        if (value + childSize.value > bytes.length) break;
        if (childId.value === TIMECODE_SCALE) {
          scale = 0;
          for (let i = 0; i < childSize.value; i++) scale = scale * 256 + bytes[value + i]!;
        } else if (childId.value === DURATION) {
          if (childSize.value === 8) duration = view.getFloat64(value);
          else if (childSize.value === 4) duration = view.getFloat32(value);
        }
        at = value + childSize.value;
      }
      return duration === null || !Number.isFinite(duration) ? null : Math.round((duration * scale) / 1_000_000);
    }
    at = body + size.value;
  }
  return null;
}
