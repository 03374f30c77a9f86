import { describe, expect, it } from "vitest";
import { inspectVideo } from "../../worker/domain/media/inspect-video";
import type { ReadRange } from "../../worker/domain/media/video-containers";
import { VIDEOS } from "../support/video-fixtures";

/**
 * worker/domain/media/inspect-video.ts on tiny real files made by ffmpeg (tests/fixtures/video/README.md), and on
 * copies of them changed byte by byte to say something else. The expected facts are what ffprobe reports of the
 * files, and the codec strings are RFC 6381's for the encoders' settings (H.264 baseline level 3.0 is avc1.42c01e:
 * profile 66, constraint flags 0xc0, level 30).
 */

/** Reads `bytes` by range, remembering each range asked for. */
function rangesOf(bytes: Uint8Array) {
  const requests: { offset: number; length: number }[] = [];
  const read: ReadRange = async (offset, length) => {
    requests.push({ offset, length });
    return bytes.slice(offset, offset + length);
  };
  return { read, requests, inspect: () => inspectVideo(read, bytes.length) };
}

const inspect = (bytes: Uint8Array) => rangesOf(bytes).inspect();

/** Where the ASCII text first occurs in `bytes` (a box type, a codec id). */
function indexOfText(bytes: Uint8Array, text: string, from = 0): number {
  const codes = [...text].map((c) => c.charCodeAt(0));
  for (let at = from; at + codes.length <= bytes.length; at++)
    if (codes.every((code, i) => bytes[at + i] === code)) return at;
  throw new Error(`${text} not found`);
}

/** A copy of `bytes` with `text` (first found after `from`) replaced by `replacement` of the same length. */
function withText(bytes: Uint8Array, text: string, replacement: string, from = 0): Uint8Array {
  const copy = bytes.slice();
  const at = indexOfText(copy, text, from);
  [...replacement].forEach((c, i) => (copy[at + i] = c.charCodeAt(0)));
  return copy;
}

describe("MP4", () => {
  it("reads a fast-start H.264 + AAC file: codecs, frame, both lengths", async () => {
    expect(await inspect(VIDEOS.fastStartMp4)).toEqual({
      container: "mp4",
      fastStart: true,
      videoCodec: "avc1.42c01e",
      audioCodec: "mp4a.40.2",
      width: 320,
      height: 180,
      durationMs: 2000,
      samplesDurationMs: 2000,
    });
  });

  it("tells a file whose index comes after its media data", async () => {
    expect(await inspect(VIDEOS.moovAtEndMp4)).toMatchObject({ fastStart: false, videoCodec: "avc1.42c01e" });
  });

  it("reads the box headers and the index only, never the media data", async () => {
    for (const bytes of [VIDEOS.fastStartMp4, VIDEOS.moovAtEndMp4]) {
      const file = rangesOf(bytes);
      expect(await file.inspect()).not.toBeNull();
      const mdat = indexOfText(bytes, "mdat") - 4;
      const mdatSize = new DataView(bytes.buffer, bytes.byteOffset).getUint32(mdat);
      // Nothing read reaches past mdat's own 16-byte header read into its payload.
      for (const { offset, length } of file.requests)
        expect(offset + length <= mdat + 16 || offset >= mdat + mdatSize, `${offset}+${length}`).toBe(true);
      expect(file.requests.reduce((sum, request) => sum + request.length, 0)).toBeLessThan(bytes.length / 4);
    }
  });

  it("names another video codec by its sample entry, and no sound as null", async () => {
    expect(await inspect(VIDEOS.hevcMp4)).toMatchObject({ videoCodec: "hvc1", audioCodec: "mp4a.40.2" });
    expect(await inspect(VIDEOS.fiveSecondsSilentMp4)).toMatchObject({
      audioCodec: null,
      durationMs: 5000,
      samplesDurationMs: 5000,
    });
  });

  it("adds up the video samples' durations from stts, apart from the movie header", async () => {
    const bytes = VIDEOS.fastStartMp4.slice();
    const view = new DataView(bytes.buffer);
    // The video track (the first) has one stts run: 20 samples of 1/10 s each in its timescale; double the delta.
    const stts = indexOfText(bytes, "stts") + 4;
    expect(view.getUint32(stts + 4)).toBe(1);
    const delta = view.getUint32(stts + 12);
    expect(view.getUint32(stts + 8) * delta).toBeGreaterThan(0);
    view.setUint32(stts + 12, delta * 2);
    expect(await inspect(bytes)).toMatchObject({ durationMs: 2000, samplesDurationMs: 4000 });
  });

  it("an avc1 without its avcC, or a file with no video track, is unreadable", async () => {
    expect(await inspect(withText(VIDEOS.fastStartMp4, "avcC", "xxxx"))).toBeNull();
    expect(await inspect(withText(VIDEOS.fastStartMp4, "vide", "hint"))).toBeNull();
  });

  it("a file cut before its index ends is unreadable", async () => {
    expect(await inspect(VIDEOS.moovAtEndMp4.slice(0, VIDEOS.moovAtEndMp4.length - 200))).toBeNull();
  });
});

describe("WebM", () => {
  it("reads VP9 + Opus from the head: codecs, frame and Info's Duration", async () => {
    const file = rangesOf(VIDEOS.vp9OpusWebm);
    expect(await file.inspect()).toEqual({
      container: "webm",
      fastStart: true,
      videoCodec: "vp09.00.10.08",
      audioCodec: "opus",
      width: 320,
      height: 180,
      durationMs: 2008,
      samplesDurationMs: null,
    });
    expect(file.requests.every((request) => request.offset === 0)).toBe(true);
  });

  it("reads VP8 as vp8, and another DocType (Matroska) as unreadable", async () => {
    expect(await inspect(withText(VIDEOS.vp9OpusWebm, "V_VP9", "V_VP8"))).toMatchObject({ videoCodec: "vp8" });
    expect(await inspect(withText(VIDEOS.vp9OpusWebm, "webm", "mkv!"))).toBeNull();
  });
});

describe("anything else", () => {
  it.each([
    ["text", new TextEncoder().encode("this is a text file and not a video at all")],
    ["a PNG", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])],
    ["zeros", new Uint8Array(256)],
    ["nothing", new Uint8Array(0)],
    ["an MP4's first 100 bytes", VIDEOS.moovAtEndMp4.slice(0, 100)],
    ["a WebM's first 40 bytes", VIDEOS.vp9OpusWebm.slice(0, 40)],
  ])("%s is unreadable", async (_name, bytes) => {
    expect(await inspect(bytes)).toBeNull();
  });
});
