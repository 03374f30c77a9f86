/**
 * Tiny real videos made once with ffmpeg (tests/fixtures/video/README.md says how), as bytes: the unit tier reads
 * them in Node and the worker tier in workerd, so they come in as data URLs through Vite rather than from a disk.
 */
import h264AacFastStart from "../fixtures/video/h264-aac-faststart.mp4?inline";
import h264AacMoovAtEnd from "../fixtures/video/h264-aac-moov-at-end.mp4?inline";
import h264Dense from "../fixtures/video/h264-dense.mp4?inline";
import h264FiveSecondsSilent from "../fixtures/video/h264-5s-silent.mp4?inline";
import hevcAac from "../fixtures/video/hevc-aac.mp4?inline";
import vp9Opus from "../fixtures/video/vp9-opus.webm?inline";

const bytesOf = (dataUrl: string) =>
  Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (char) => char.charCodeAt(0));

export const VIDEOS = {
  /** 2 s, 320×180, 10 fps, H.264 baseline + AAC-LC mono, moov before mdat. */
  fastStartMp4: bytesOf(h264AacFastStart),
  /** The same streams with moov after mdat (ffmpeg without +faststart). */
  moovAtEndMp4: bytesOf(h264AacMoovAtEnd),
  /** 2 s, 320×180, HEVC (hvc1) + AAC, fast start. */
  hevcMp4: bytesOf(hevcAac),
  /** 2.008 s, 320×180, VP9 + Opus. */
  vp9OpusWebm: bytesOf(vp9Opus),
  /** 5 s, 320×180, H.264 without sound. */
  fiveSecondsSilentMp4: bytesOf(h264FiveSecondsSilent),
  /** 0.2 s, 320×180, H.264 of noise: about 1.65 Mbit/s, above the 360p bound. */
  denseMp4: bytesOf(h264Dense),
};
