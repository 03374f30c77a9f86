/**
 * Walking a video file's structure without reading it whole: the boxes of an MP4 or QuickTime file (ISO base media,
 * each box a size and a four-letter type) and the elements of a WebM file (EBML, each element a variable-length id
 * and size). video-duration.ts and inspect-video.ts read what they need through these.
 */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

/** A box: where it starts, where its payload starts, where it ends (all offsets in the same bytes or file). */
export interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

const MAX_TOP_LEVEL_BOXES = 32;

export const ascii4 = (bytes: Uint8Array, at: number) =>
  String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

export const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The file's top-level boxes in order, by their headers alone (a 16-byte read each: a 200 MB 'mdat' costs one
 * read). Stops at the end, after 32 boxes, or at a box that cannot be (smaller than its header).
 */
export async function* topLevelBoxes(read: ReadRange, size: number): AsyncGenerator<Box> {
  let offset = 0;
  for (let i = 0; i < MAX_TOP_LEVEL_BOXES && offset + 8 <= size; i++) {
    const header = await read(offset, Math.min(16, size - offset));
    if (header.length < 8) return;
    const view = viewOf(header);
    let boxSize = view.getUint32(0);
    let body = offset + 8;
    if (boxSize === 1 && header.length >= 16) {
      boxSize = Number(view.getBigUint64(8));
      body += 8;
    } else if (boxSize === 0) boxSize = size - offset;
    if (boxSize < body - offset) return;
    yield { type: ascii4(header, 4), start: offset, body, end: offset + boxSize };
    offset += boxSize;
  }
}

/** The boxes inside `bytes` from `start` to `end` (a parent's payload); stops at one that does not fit. */
export function* childBoxes(bytes: Uint8Array, start: number, end = bytes.length): Generator<Box> {
  const view = viewOf(bytes);
  const limit = Math.min(end, bytes.length);
  let at = start;
  while (at + 8 <= limit) {
    let boxSize = view.getUint32(at);
    let body = at + 8;
    if (boxSize === 1 && at + 16 <= limit) {
      boxSize = Number(view.getBigUint64(at + 8));
      body += 8;
    } else if (boxSize === 0) boxSize = limit - at;
    if (boxSize < body - at) return;
    yield { type: ascii4(bytes, at + 4), start: at, body, end: at + boxSize };
    at += boxSize;
  }
}

/** The first child of type `type` (a path of types: "mdia", "minf", "stbl"), or undefined. */
export function findBox(bytes: Uint8Array, parent: Pick<Box, "body" | "end">, ...path: string[]): Box | undefined {
  let found: Box | undefined = { type: "", start: parent.body, body: parent.body, end: parent.end };
  for (const type of path) {
    let next: Box | undefined;
    for (const child of childBoxes(bytes, found.body, found.end)) {
      if (child.type === type) {
        next = child;
        break;
      }
    }
    if (!next) return undefined;
    found = next;
  }
  return found;
}

export const toMs = (duration: number, timescale: number) =>
  timescale > 0 ? Math.round((duration * 1000) / timescale) : null;

/**
 * A full box's duration in its timescale: mvhd and mdhd share the layout (version 0: 32-bit times, version 1: 64-bit).
 * `box` is the mvhd or mdhd found in `bytes`.
 */
export function headerDurationMs(bytes: Uint8Array, box: Box): number | null {
  const view = viewOf(bytes);
  const version = bytes[box.body];
  const end = Math.min(box.end, bytes.length);
  if (version === 1 && box.body + 32 <= end)
    return toMs(Number(view.getBigUint64(box.body + 24)), view.getUint32(box.body + 20));
  if (version === 0 && box.body + 20 <= end) return toMs(view.getUint32(box.body + 16), view.getUint32(box.body + 12));
  return null;
}

/** The timescale (units per second) of an mdhd. */
export function headerTimescale(bytes: Uint8Array, box: Box): number | null {
  const view = viewOf(bytes);
  const version = bytes[box.body];
  const at = version === 1 ? box.body + 20 : version === 0 ? box.body + 12 : -1;
  return at >= 0 && at + 4 <= Math.min(box.end, bytes.length) ? view.getUint32(at) : null;
}

/** The movie's length from 'mvhd' in `moov` (the moov box's bytes, from its header). */
export function mvhdDurationMs(moov: Uint8Array): number | null {
  const mvhd = findBox(moov, { body: 8, end: moov.length }, "mvhd");
  return mvhd ? headerDurationMs(moov, mvhd) : null;
}

// ——— EBML (WebM) ———

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

export interface Element {
  id: number;
  /** Where its payload starts and ends (the end may lie beyond the bytes read). */
  body: number;
  end: number;
}

/** The elements from `start` to `end`; stops at one whose header cannot be read. */
export function* elements(bytes: Uint8Array, start: number, end = bytes.length): Generator<Element> {
  let at = start;
  while (at < Math.min(end, bytes.length)) {
    const id = vint(bytes, at, true);
    const size = id && vint(bytes, at + id.length, false);
    if (!id || !size) return;
    const body = at + id.length + size.length;
    // A size of all ones is "unknown": the element runs to its parent's end.
    const unknown = size.value === 2 ** (7 * size.length) - 1;
    yield { id: id.value, body, end: unknown ? end : body + size.value };
    at = unknown ? end : body + size.value;
  }
}

const EBML_HEADER = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
export const INFO = 0x1549a966;
export const TRACKS = 0x1654ae6b;

/** An unsigned integer element's value. */
export function ebmlUint(bytes: Uint8Array, element: Element): number {
  let value = 0;
  for (let i = element.body; i < Math.min(element.end, bytes.length); i++) value = value * 256 + bytes[i]!;
  return value;
}

export const ebmlString = (bytes: Uint8Array, element: Element) =>
  String.fromCharCode(...bytes.subarray(element.body, Math.min(element.end, bytes.length))).replace(/\0+$/, "");

/**
 * The head of a WebM file: its DocType and the segment's top-level elements before the first Cluster (Info,
 * Tracks…), as far as `bytes` reach. Null when the file does not start with an EBML header.
 */
export function webmHead(bytes: Uint8Array): { docType: string | null; children: Element[] } | null {
  let docType: string | null = null;
  const children: Element[] = [];
  let first = true;
  for (const element of elements(bytes, 0)) {
    if (first && element.id !== EBML_HEADER) return null;
    first = false;
    if (element.id === EBML_HEADER) {
      for (const child of elements(bytes, element.body, element.end))
        if (child.id === DOC_TYPE) docType = ebmlString(bytes, child);
    } else if (element.id === SEGMENT) {
      for (const child of elements(bytes, element.body, element.end)) {
        if (child.id === CLUSTER) break;
        children.push(child);
      }
      break;
    }
  }
  return first ? null : { docType, children };
}
