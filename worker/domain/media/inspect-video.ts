import { WEBM_HEAD_BYTES, webmDurationMs } from "./video-duration";
import {
  ascii4,
  childBoxes,
  ebmlString,
  ebmlUint,
  elements,
  findBox,
  headerDurationMs,
  headerTimescale,
  toMs,
  topLevelBoxes,
  TRACKS,
  viewOf,
  webmHead,
  type Box,
  type ReadRange,
} from "./video-containers";

/** What a video file says of itself, read from its bytes (inspectVideo). */
export interface VideoFacts {
  container: "mp4" | "webm";
  /** MP4: its index ('moov') comes before the media data, so playback starts before the whole file is there. WebM: always. */
  fastStart: boolean;
  /** As a codecs parameter says it: "avc1.42e01e", "vp09.00.10.08", "vp8"; another codec's own name ("hvc1"). */
  videoCodec: string;
  /** "mp4a.40.2", "opus"…; null when the file has no sound. */
  audioCodec: string | null;
  width: number;
  height: number;
  /** The length the header states (MP4 mvhd, WebM Info), null when it does not. */
  durationMs: number | null;
  /** MP4: the length of the video track's samples (their durations added up); null for WebM, which has no such index. */
  samplesDurationMs: number | null;
}

/** A moov larger than this is not a short rendition's (a few hundred kB for ten minutes): not read. */
const MAX_MOOV_BYTES = 4 * 1024 * 1024;

/**
 * The facts of an MP4 or WebM file, read with a few range reads (never the whole file): MP4 by walking the top-level
 * boxes to 'moov' and reading it, WebM from its head (Info and Tracks come before the first Cluster). Null for
 * anything it cannot read: another container, no video track, a codec or frame size it does not state.
 */
export async function inspectVideo(read: ReadRange, size: number): Promise<VideoFacts | null> {
  if (size < 12) return null;
  const head = await read(0, Math.min(size, 12));
  if (ascii4(head, 4) === "ftyp") return inspectMp4(read, size);
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return inspectWebm(await read(0, Math.min(size, WEBM_HEAD_BYTES)));
  return null;
}

async function inspectMp4(read: ReadRange, size: number): Promise<VideoFacts | null> {
  let mdatSeen = false;
  for await (const box of topLevelBoxes(read, size)) {
    if (box.type === "mdat") mdatSeen = true;
    if (box.type !== "moov") continue;
    if (box.end > size || box.end - box.start > MAX_MOOV_BYTES) return null;
    const moov = await read(box.start, box.end - box.start);
    const facts = moovFacts(moov, box.body - box.start);
    return facts && { ...facts, fastStart: !mdatSeen };
  }
  return null;
}

interface TrackFacts {
  handler: string;
  codec: string | null;
  width: number;
  height: number;
  samplesDurationMs: number | null;
}

function moovFacts(moov: Uint8Array, bodyAt: number): Omit<VideoFacts, "fastStart"> | null {
  const tracks = [...childBoxes(moov, bodyAt)]
    .filter((box) => box.type === "trak")
    .map((trak) => trackFacts(moov, trak));
  const video = tracks.find((track) => track.handler === "vide");
  const audio = tracks.find((track) => track.handler === "soun");
  if (!video?.codec || video.width <= 0 || video.height <= 0) return null;
  const mvhd = findBox(moov, { body: bodyAt, end: moov.length }, "mvhd");
  return {
    container: "mp4",
    videoCodec: video.codec,
    audioCodec: audio ? (audio.codec ?? "unknown") : null,
    width: video.width,
    height: video.height,
    durationMs: mvhd ? headerDurationMs(moov, mvhd) : null,
    samplesDurationMs: video.samplesDurationMs,
  };
}

function trackFacts(moov: Uint8Array, trak: Box): TrackFacts {
  const view = viewOf(moov);
  const hdlr = findBox(moov, trak, "mdia", "hdlr");
  const handler = hdlr && hdlr.body + 12 <= hdlr.end ? ascii4(moov, hdlr.body + 8) : "";
  const mdhd = findBox(moov, trak, "mdia", "mdhd");
  const stbl = findBox(moov, trak, "mdia", "minf", "stbl");
  const stsd = stbl && findBox(moov, stbl, "stsd");
  // The first sample entry, after stsd's version, flags and entry count.
  const entry = stsd ? childBoxes(moov, stsd.body + 8, stsd.end).next().value : undefined;
  const stts = stbl && findBox(moov, stbl, "stts");
  const timescale = mdhd ? headerTimescale(moov, mdhd) : null;
  const ticks = stts ? sampleTicks(moov, stts) : null;
  // tkhd's width and height are 16.16 fixed point, its last two fields (its body is 84 bytes in version 0, 96 in 1).
  const tkhd = findBox(moov, trak, "tkhd");
  const sizeAt = tkhd ? (moov[tkhd.body] === 1 ? tkhd.body + 88 : tkhd.body + 76) : Infinity;
  const tkhdHasSize = tkhd !== undefined && sizeAt + 8 <= tkhd.end;
  let width = tkhdHasSize ? view.getUint32(sizeAt) >>> 16 : 0;
  let height = tkhdHasSize ? view.getUint32(sizeAt + 4) >>> 16 : 0;
  if ((width === 0 || height === 0) && entry && handler === "vide" && entry.body + 28 <= entry.end) {
    // A visual sample entry's own size, after 24 bytes of reserved fields and indexes.
    width = view.getUint16(entry.body + 24);
    height = view.getUint16(entry.body + 26);
  }
  return {
    handler,
    codec: entry ? sampleEntryCodec(moov, entry, handler) : null,
    width,
    height,
    samplesDurationMs: ticks !== null && timescale ? toMs(ticks, timescale) : null,
  };
}

/** The sum of the samples' durations (stts: runs of count × delta), in the track's timescale. */
function sampleTicks(moov: Uint8Array, stts: Box): number | null {
  const view = viewOf(moov);
  if (stts.body + 8 > stts.end) return null;
  const count = view.getUint32(stts.body + 4);
  if (stts.body + 8 + count * 8 > stts.end) return null;
  let ticks = 0;
  for (let i = 0; i < count; i++) {
    const at = stts.body + 8 + i * 8;
    ticks += view.getUint32(at) * view.getUint32(at + 4);
  }
  return ticks;
}

const hex2 = (byte: number) => byte.toString(16).padStart(2, "0");

/** The codecs parameter of a sample entry: avc1/avc3 from its avcC, mp4a from its esds; other codecs by their type. */
function sampleEntryCodec(moov: Uint8Array, entry: Box, handler: string): string | null {
  if (entry.type === "avc1" || entry.type === "avc3") {
    // A visual sample entry's fields take 78 bytes; its boxes (avcC, pasp…) follow.
    const avcC = findBox(moov, { body: entry.body + 78, end: entry.end }, "avcC");
    if (!avcC || avcC.body + 4 > avcC.end) return null;
    return `${entry.type}.${hex2(moov[avcC.body + 1]!)}${hex2(moov[avcC.body + 2]!)}${hex2(moov[avcC.body + 3]!)}`;
  }
  if (entry.type === "mp4a" && handler === "soun") {
    // An audio sample entry's fields take 28 bytes (QuickTime's versions 1 and 2 add 16 and 36).
    const version = viewOf(moov).getUint16(entry.body + 8);
    const boxesAt = entry.body + 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
    const esds = findBox(moov, { body: boxesAt, end: entry.end }, "esds");
    return esds ? esdsCodec(moov.subarray(esds.body + 4, Math.min(esds.end, moov.length))) : null;
  }
  return entry.type.trim();
}

/**
 * "mp4a.40.2" from an esds's descriptors: the ES descriptor (tag 3) holds the decoder config (tag 4: the object type,
 * 0x40 for MPEG-4 audio), which holds the decoder's own config (tag 5), whose first 5 bits are the audio object type.
 */
function esdsCodec(bytes: Uint8Array): string | null {
  const descriptor = (at: number, tag: number) => {
    if (bytes[at] !== tag) return null;
    let length = 0;
    let i = at + 1;
    for (let n = 0; n < 4; n++, i++) {
      const byte = bytes[i];
      if (byte === undefined) return null;
      length = (length << 7) | (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    return { body: i + 1, end: i + 1 + length };
  };
  const es = descriptor(0, 3);
  if (!es) return null;
  const flags = bytes[es.body + 2] ?? 0;
  let at = es.body + 3;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + (bytes[at] ?? 0);
  if (flags & 0x20) at += 2;
  const config = descriptor(at, 4);
  if (!config) return null;
  const objectType = bytes[config.body];
  if (objectType === undefined) return null;
  const specific = descriptor(config.body + 13, 5);
  const first = specific ? bytes[specific.body] : undefined;
  if (!specific || first === undefined) return `mp4a.${hex2(objectType)}`;
  let audioObjectType = first >> 3;
  if (audioObjectType === 31) audioObjectType = 32 + (((first & 0x07) << 3) | ((bytes[specific.body + 1] ?? 0) >> 5));
  return `mp4a.${hex2(objectType)}.${audioObjectType}`;
}

const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const VIDEO = 0xe0;
const PIXEL_WIDTH = 0xb0;
const PIXEL_HEIGHT = 0xba;

/** A WebM's facts from its head: its DocType, its Tracks (codec ids, the frame's pixels) and Info's Duration. */
function inspectWebm(bytes: Uint8Array): VideoFacts | null {
  const head = webmHead(bytes);
  const tracks = head?.children.find((child) => child.id === TRACKS);
  if (head?.docType !== "webm" || !tracks) return null;
  let video: { codec: string; width: number; height: number } | null = null;
  let audioCodec: string | null = null;
  for (const entry of elements(bytes, tracks.body, tracks.end)) {
    if (entry.id !== TRACK_ENTRY) continue;
    let type = 0;
    let codecId = "";
    let codecPrivate: Uint8Array | null = null;
    let width = 0;
    let height = 0;
    for (const field of elements(bytes, entry.body, entry.end)) {
      if (field.id === TRACK_TYPE) type = ebmlUint(bytes, field);
      else if (field.id === CODEC_ID) codecId = ebmlString(bytes, field);
      else if (field.id === CODEC_PRIVATE) codecPrivate = bytes.subarray(field.body, Math.min(field.end, bytes.length));
      else if (field.id === VIDEO)
        for (const pixels of elements(bytes, field.body, field.end)) {
          if (pixels.id === PIXEL_WIDTH) width = ebmlUint(bytes, pixels);
          else if (pixels.id === PIXEL_HEIGHT) height = ebmlUint(bytes, pixels);
        }
    }
    if (type === 1 && !video) video = { codec: webmVideoCodec(codecId, codecPrivate), width, height };
    else if (type === 2 && audioCodec === null) audioCodec = webmAudioCodec(codecId);
  }
  if (!video || video.width <= 0 || video.height <= 0) return null;
  return {
    container: "webm",
    fastStart: true,
    videoCodec: video.codec,
    audioCodec,
    width: video.width,
    height: video.height,
    durationMs: webmDurationMs(bytes),
    samplesDurationMs: null,
  };
}

/**
 * V_VP9 as "vp09.PP.LL.DD" from its CodecPrivate (profile 1, level 2, bit depth 3: id, length, value each), else
 * profile 0, level 1, 8 bits (what every browser plays); V_VP8 as "vp8"; any other by its id.
 */
function webmVideoCodec(codecId: string, codecPrivate: Uint8Array | null): string {
  if (codecId === "V_VP8") return "vp8";
  if (codecId !== "V_VP9") return codecId;
  const features = new Map<number, number>();
  for (let at = 0; codecPrivate && at + 2 < codecPrivate.length; at += 2 + codecPrivate[at + 1]!)
    features.set(codecPrivate[at]!, codecPrivate[at + 2]!);
  const two = (n: number) => String(n).padStart(2, "0");
  return `vp09.${two(features.get(1) ?? 0)}.${two(features.get(2) ?? 10)}.${two(features.get(3) ?? 8)}`;
}

const webmAudioCodec = (codecId: string) =>
  codecId === "A_OPUS" ? "opus" : codecId === "A_VORBIS" ? "vorbis" : codecId || "unknown";
