/**
 * Removing what a camera or an editor writes about a photo (GPS position, device, date, comments, editing
 * history) before it is stored. Pure functions over the whole file: images are at most 20 MB, so in memory.
 * Each answers the cleaned bytes and the pixel size, or null when the file is not well formed.
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

/** Segments dropped from a JPEG: APP1 (Exif, XMP), APP13 (Photoshop IPTC), COM (comments). */
const DROPPED_JPEG_MARKERS = new Set([0xe1, 0xed, 0xfe]);
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

export function stripJpeg(bytes: Uint8Array): CleanImage | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let width: number | null = null;
  let height: number | null = null;
  let orientation: number | null = null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(bytes.subarray(offset, offset + 2));
      offset += 2;
      continue;
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    const end = offset + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    if (marker === 0xda) {
      // Start of scan: the compressed image data follows up to the end; nothing of interest after it.
      kept.push(bytes.subarray(offset));
      offset = bytes.length;
      break;
    }
    const payload = bytes.subarray(offset + 4, end);
    if (isStartOfFrame(marker) && payload.length >= 5) {
      height = (payload[1]! << 8) | payload[2]!;
      width = (payload[3]! << 8) | payload[4]!;
    }
    if (marker === 0xe1) {
      const found = exifOrientation(payload);
      if (found !== null && orientation === null) {
        orientation = found;
        kept.push(orientationSegment(found));
      }
    }
    if (!DROPPED_JPEG_MARKERS.has(marker)) kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  if (offset < bytes.length) return null;
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
    if (type === "IEND") break;
  }
  return { bytes: concat(kept), width: view.getUint32(16), height: view.getUint32(20) };
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
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const type = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset + 4, 4).getUint32(0, true);
    const end = offset + 8 + length + (length % 2);
    if (offset + 8 + length > bytes.length) return null;
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    size ??= webpSize(type, data);
    if (!DROPPED_WEBP_CHUNKS.has(type)) {
      // A copy, so that clearing the metadata flags never writes into the caller's bytes.
      const chunk = bytes.slice(offset, Math.min(end, bytes.length));
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

/** The cleaning function for a content type detected by magic bytes. */
export function stripImageMetadata(contentType: string, bytes: Uint8Array): CleanImage | null {
  if (contentType === "image/jpeg") return stripJpeg(bytes);
  if (contentType === "image/png") return stripPng(bytes);
  if (contentType === "image/webp") return stripWebp(bytes);
  return null;
}
