/**
 * Removing what a camera or an editor writes about a photo (GPS position, device, date, comments, editing
 * history) before it is stored. Pure functions over the whole file: images are at most 20 MB, so in memory.
 * Each answers the cleaned bytes and the pixel size, or null when the file is not well formed, which includes a
 * file cut off before its end (an upload that stopped short): a JPEG must reach its end of image (EOI), a PNG
 * its IEND chunk, a GIF its trailer, a WebP the length its RIFF header gives. The walk to the end marker, not
 * the file's last bytes, decides: phones append pictures and clips after a JPEG's EOI, which are dropped.
 */
export interface CleanImage {
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
}

const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The Orientation (1–8) of an Exif APP1 payload (after the segment length), or null. */
export function exifOrientation(payload: Uint8Array): number | null {
  if (!EXIF_HEADER.every((byte, i) => payload[i] === byte)) return null;
  const tiff = payload.subarray(6);
  if (tiff.length < 8) return null;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return null;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return null;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : null;
  }
  return null;
}

/** An APP1 segment holding nothing but the Orientation tag, so a rotated photo still displays upright. */
export function orientationSegment(orientation: number): Uint8Array {
  // prettier-ignore
  const body = [
    ...EXIF_HEADER,
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF header, IFD0 at offset 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, // Orientation, SHORT, 1 value
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ];
  const length = body.length + 2;
  return Uint8Array.from([0xff, 0xe1, length >> 8, length & 0xff, ...body]);
}

/**
 * Segments kept in a JPEG: APP0 (JFIF), APP14 (Adobe colour transform) and APP2 when it is an ICC profile.
 * Every other application segment (APP1 Exif and XMP, APP2 MPF, APP13 Photoshop IPTC, vendor ones) and COM
 * (comments) is dropped.
 */
const ICC_PROFILE = [..."ICC_PROFILE\0"].map((c) => c.charCodeAt(0));
const isApplicationSegment = (marker: number) => marker >= 0xe0 && marker <= 0xef;
function keepsJpegSegment(marker: number, payload: Uint8Array): boolean {
  if (marker === 0xfe) return false;
  if (!isApplicationSegment(marker)) return true;
  if (marker === 0xe2) return ICC_PROFILE.every((byte, i) => payload[i] === byte);
  return marker === 0xe0 || marker === 0xee;
}
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

/** Where the entropy-coded data that starts at `from` ends: at the next marker (not a stuffed 0xFF00 or a restart). */
function endOfScan(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(0xff, from); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    const next = bytes[i + 1]!;
    if (next !== 0x00 && next !== 0xff && !isRestart(next)) return i;
  }
  return bytes.length;
}

/**
 * Walks the segments up to the end of image (EOI). Anything after EOI is dropped too: phones append further
 * pictures there (MPF/MPO depth maps, "motion" clips) that carry their own Exif and GPS.
 */
export function stripJpeg(bytes: Uint8Array): CleanImage | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let width: number | null = null;
  let height: number | null = null;
  let orientation: number | null = null;
  let offset = 2;
  for (;;) {
    if (offset + 2 > bytes.length || bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      kept.push(bytes.subarray(offset, offset + 2));
      break;
    }
    if (marker === 0x01 || isRestart(marker)) {
      kept.push(bytes.subarray(offset, offset + 2));
      offset += 2;
      continue;
    }
    if (offset + 4 > bytes.length) return null;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    let end = offset + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    const payload = bytes.subarray(offset + 4, end);
    if (marker === 0xda) end = endOfScan(bytes, end);
    if (isStartOfFrame(marker) && payload.length >= 5) {
      height = (payload[1]! << 8) | payload[2]!;
      width = (payload[3]! << 8) | payload[4]!;
    }
    if (marker === 0xe1 && orientation === null) {
      orientation = exifOrientation(payload);
      if (orientation !== null) kept.push(orientationSegment(orientation));
    }
    if (keepsJpegSegment(marker, payload)) kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  // Orientations 5–8 turn the picture a quarter: the displayed size is the stored one swapped.
  const turned = orientation !== null && orientation >= 5;
  return { bytes: concat(kept), width: turned ? height : width, height: turned ? width : height };
}

/** Ancillary PNG chunks that carry metadata: Exif, text (comments, software, XMP), modification time. */
const DROPPED_PNG_CHUNKS = new Set(["eXIf", "tEXt", "iTXt", "zTXt", "tIME"]);

export function stripPng(bytes: Uint8Array): CleanImage | null {
  if (bytes.length < 33) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const end = offset + 12 + length;
    if (end > bytes.length) return null;
    if (!DROPPED_PNG_CHUNKS.has(type)) kept.push(bytes.subarray(offset, end));
    offset = end;
    if (type === "IEND") return { bytes: concat(kept), width: view.getUint32(16), height: view.getUint32(20) };
  }
  return null;
}

/** RIFF chunks of a WebP that carry metadata, and their flags in the VP8X header. */
const DROPPED_WEBP_CHUNKS = new Map([
  ["EXIF", 0x08],
  ["XMP ", 0x04],
]);

function webpSize(type: string, data: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (type === "VP8X" && data.length >= 10) {
    return { width: (view.getUint32(4, true) & 0xffffff) + 1, height: (view.getUint32(6, true) >>> 8) + 1 };
  }
  if (type === "VP8 " && data.length >= 10) {
    return { width: view.getUint16(6, true) & 0x3fff, height: view.getUint16(8, true) & 0x3fff };
  }
  if (type === "VP8L" && data.length >= 5) {
    const bits = view.getUint32(1, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

export function stripWebp(bytes: Uint8Array): CleanImage | null {
  if (bytes.length < 20) return null;
  const kept: Uint8Array[] = [];
  let size: { width: number; height: number } | null = null;
  let vp8x: Uint8Array | null = null;
  // Chunks end where the RIFF header says: a file shorter than that was cut off; anything appended is dropped.
  const riffEnd = 8 + new DataView(bytes.buffer, bytes.byteOffset + 4, 4).getUint32(0, true);
  if (riffEnd > bytes.length) return null;
  let offset = 12;
  while (offset + 8 <= riffEnd) {
    const type = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset + 4, 4).getUint32(0, true);
    const end = offset + 8 + length + (length % 2);
    if (offset + 8 + length > riffEnd) return null;
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    size ??= webpSize(type, data);
    if (!DROPPED_WEBP_CHUNKS.has(type)) {
      // A copy, so that clearing the metadata flags never writes into the caller's bytes.
      const chunk = bytes.slice(offset, Math.min(end, riffEnd));
      if (type === "VP8X") vp8x = chunk;
      kept.push(chunk);
    }
    offset = end;
  }
  if (vp8x) for (const flag of DROPPED_WEBP_CHUNKS.values()) vp8x[8] = vp8x[8]! & ~flag;
  const body = concat(kept);
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 4));
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  header.set(bytes.subarray(8, 12), 8);
  return { bytes: concat([header, body]), width: size?.width ?? null, height: size?.height ?? null };
}

/** Where the data sub-blocks starting at `offset` end (after their zero-length terminator), or -1 if cut off. */
function endOfSubBlocks(bytes: Uint8Array, offset: number): number {
  while (offset < bytes.length) {
    const size = bytes[offset]!;
    offset += 1 + size;
    if (size === 0) return offset;
  }
  return -1;
}

const colorTableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/**
 * GIF: comment extensions and application extensions other than the looping one (NETSCAPE2.0 / ANIMEXTS1.0)
 * are dropped (XMP travels in an application extension); frames, palettes and timing are kept.
 */
export function stripGif(bytes: Uint8Array): CleanImage | null {
  if (bytes.length < 13) return null;
  const width = bytes[6]! | (bytes[7]! << 8);
  const height = bytes[8]! | (bytes[9]! << 8);
  let offset = 13 + colorTableSize(bytes[10]!);
  const kept: Uint8Array[] = [bytes.subarray(0, offset)];
  while (offset < bytes.length) {
    const introducer = bytes[offset]!;
    if (introducer === 0x3b) {
      kept.push(bytes.subarray(offset, offset + 1));
      return { bytes: concat(kept), width, height };
    }
    let end: number;
    let keep = true;
    if (introducer === 0x21) {
      const label = bytes[offset + 1];
      end = endOfSubBlocks(bytes, offset + 2);
      if (label === 0xfe) keep = false;
      if (label === 0xff) {
        const application = String.fromCharCode(...bytes.subarray(offset + 3, offset + 14));
        keep = application === "NETSCAPE2.0" || application === "ANIMEXTS1.0";
      }
    } else if (introducer === 0x2c) {
      const afterDescriptor = offset + 10 + colorTableSize(bytes[offset + 9] ?? 0);
      end = endOfSubBlocks(bytes, afterDescriptor + 1); // +1: the LZW minimum code size
    } else {
      return null;
    }
    if (end === -1) return null;
    if (keep) kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  return null;
}

/** The cleaning function for a content type detected by magic bytes. */
export function stripImageMetadata(contentType: string, bytes: Uint8Array): CleanImage | null {
  if (contentType === "image/jpeg") return stripJpeg(bytes);
  if (contentType === "image/png") return stripPng(bytes);
  if (contentType === "image/webp") return stripWebp(bytes);
  if (contentType === "image/gif") return stripGif(bytes);
  return null;
}
