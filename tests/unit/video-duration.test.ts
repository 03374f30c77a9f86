import { describe, expect, it } from "vitest";
import { videoDurationMs, webmDurationMs, type ReadRange } from "../../worker/domain/media/video-duration";

/**
 * worker/domain/media/video-duration.ts on hand-built files: MP4 movie headers (mvhd v0 and v1, moov anywhere,
 * 64-bit box sizes) read by range without reading the file, and WebM Info (Duration as float64 or float32, any
 * TimecodeScale). Whatever the file does not state, or states wrongly, is null.
 */

const concat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u64 = (n: number | bigint) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n));
  return [...bytes];
};
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const zeros = (n: number) => new Array<number>(n).fill(0);

/** An ISO BMFF box with a 32-bit size. */
const box = (type: string, ...payload: (Uint8Array | number[])[]) => {
  const body = concat(...payload);
  return concat(u32(8 + body.length), ascii(type), body);
};

const FTYP = box("ftyp", ascii("isom"), u32(0x200), ascii("isom"), ascii("mp41"));
/** The fields of mvhd after the duration: rate, volume, reserved, matrix, pre-defined, next track id. */
const MVHD_TAIL = [...u32(0x00010000), 1, 0, ...zeros(10), ...zeros(36), ...zeros(24), ...u32(2)];
const mvhdV0 = (timescale: number, duration: number) =>
  box("mvhd", [0, 0, 0, 0], u32(1), u32(2), u32(timescale), u32(duration), MVHD_TAIL);
const mvhdV1 = (timescale: number, duration: number | bigint) =>
  box("mvhd", [1, 0, 0, 0], u64(1), u64(2), u32(timescale), u64(duration), MVHD_TAIL);

/**
 * A file of `size` bytes: `pieces` at their offsets, zeros elsewhere (so a multi-gigabyte file costs nothing), read
 * the way R2 ranges are read. Remembers every range asked for.
 */
function sparseFile(size: number, pieces: { at: number; bytes: Uint8Array }[]) {
  const requests: { offset: number; length: number }[] = [];
  const read: ReadRange = async (offset, length) => {
    requests.push({ offset, length });
    const end = Math.min(size, offset + length);
    const out = new Uint8Array(Math.max(0, end - offset));
    for (const { at, bytes } of pieces) {
      const from = Math.max(offset, at);
      const to = Math.min(end, at + bytes.length);
      if (from < to) out.set(bytes.subarray(from - at, to - at), from - offset);
    }
    return out;
  };
  return { read, requests, bytesRead: () => requests.reduce((sum, request) => sum + request.length, 0) };
}

/** The bytes laid end to end as one file. */
const wholeFile = (...parts: Uint8Array[]) => {
  const bytes = concat(...parts);
  return { ...sparseFile(bytes.length, [{ at: 0, bytes }]), size: bytes.length };
};

const mp4Duration = (file: { read: ReadRange; size: number }, contentType = "video/mp4") =>
  videoDurationMs(file.read, file.size, contentType);

describe("MP4 / QuickTime: the movie header", () => {
  it("reads mvhd version 0 (32-bit duration) in its own timescale", async () => {
    expect(await mp4Duration(wholeFile(FTYP, box("moov", mvhdV0(1000, 61_000)), box("mdat", zeros(32))))).toBe(61_000);
    expect(await mp4Duration(wholeFile(FTYP, box("moov", mvhdV0(600, 7500)), box("mdat", zeros(32))))).toBe(12_500);
    // QuickTime is the same container.
    expect(await mp4Duration(wholeFile(FTYP, box("moov", mvhdV0(90_000, 2_700_000))), "video/quicktime")).toBe(30_000);
  });

  it("reads mvhd version 1 (64-bit times, duration beyond 32 bits)", async () => {
    expect(await mp4Duration(wholeFile(FTYP, box("moov", mvhdV1(90_000, 4_095_000)), box("mdat", zeros(8))))).toBe(
      45_500,
    );
    // 45 s in nanoseconds: 45e9 does not fit in 32 bits, so its high word counts.
    expect(await mp4Duration(wholeFile(FTYP, box("moov", mvhdV1(1_000_000_000, 45_000_000_000n))))).toBe(45_000);
  });

  it("finds mvhd after other children of moov", async () => {
    const moov = box(
      "moov",
      box("udta", zeros(20)),
      box("free", zeros(3)),
      mvhdV0(1000, 20_000),
      box("trak", zeros(40)),
    );
    expect(await mp4Duration(wholeFile(FTYP, moov))).toBe(20_000);
  });

  it("walks to a moov after a 200 MB mdat by the box sizes alone, reading a few hundred bytes", async () => {
    const mdatSize = 200 * 1024 * 1024;
    const moov = box("moov", mvhdV0(1000, 15_000));
    const moovAt = FTYP.length + mdatSize;
    const file = sparseFile(moovAt + moov.length, [
      { at: 0, bytes: FTYP },
      { at: FTYP.length, bytes: Uint8Array.from([...u32(mdatSize), ...ascii("mdat")]) },
      { at: moovAt, bytes: moov },
    ]);
    expect(await videoDurationMs(file.read, moovAt + moov.length, "video/mp4")).toBe(15_000);
    // One header per top-level box, then the moov itself: nothing of the mdat's payload.
    expect(file.requests.map((request) => request.offset)).toEqual([0, FTYP.length, moovAt, moovAt]);
    expect(file.bytesRead()).toBeLessThan(1024);
  });

  it("follows a 64-bit largesize box (size 1) past 4 GB", async () => {
    const mdatSize = 5 * 2 ** 30; // 5 GiB, more than 32 bits can say
    const moov = box("moov", mvhdV0(1000, 9000));
    const moovAt = FTYP.length + mdatSize;
    const size = moovAt + moov.length;
    const file = sparseFile(size, [
      { at: 0, bytes: FTYP },
      { at: FTYP.length, bytes: Uint8Array.from([...u32(1), ...ascii("mdat"), ...u64(mdatSize)]) },
      { at: moovAt, bytes: moov },
    ]);
    expect(await videoDurationMs(file.read, size, "video/mp4")).toBe(9000);
    expect(file.requests.map((request) => request.offset)).toEqual([0, FTYP.length, moovAt, moovAt]);
    expect(file.bytesRead()).toBeLessThan(1024);
  });

  it("takes a last box of size 0 as running to the end of the file", async () => {
    const moov = box("moov", mvhdV0(1000, 3000));
    moov.set(u32(0), 0);
    expect(await mp4Duration(wholeFile(FTYP, box("mdat", zeros(16)), moov))).toBe(3000);
  });

  it("reads only the head of a large moov", async () => {
    const moov = box("moov", mvhdV0(1000, 42_000), box("trak", zeros(1024 * 1024)));
    const file = wholeFile(FTYP, moov);
    expect(await mp4Duration(file)).toBe(42_000);
    expect(file.bytesRead()).toBeLessThanOrEqual(64 * 1024 + 64);
  });

  it.each([
    ["no moov", () => wholeFile(FTYP, box("mdat", zeros(64)))],
    ["moov without mvhd", () => wholeFile(FTYP, box("moov", box("trak", zeros(16))))],
    ["a timescale of 0", () => wholeFile(FTYP, box("moov", mvhdV0(0, 1000)))],
    ["an mvhd version 2", () => wholeFile(FTYP, box("moov", box("mvhd", [2, 0, 0, 0], zeros(96))))],
    [
      "an mvhd cut short",
      () => wholeFile(FTYP, box("moov", concat(u32(108), ascii("mvhd"), [0, 0, 0, 0], u32(1), u32(2)))),
    ],
    [
      "a box smaller than its header",
      () => wholeFile(FTYP, concat(u32(4), ascii("free")), box("moov", mvhdV0(1000, 1000))),
    ],
    [
      "a moov child smaller than its header",
      () => wholeFile(FTYP, box("moov", concat(u32(3), ascii("free")), mvhdV0(1000, 1000))),
    ],
    ["text", () => wholeFile(Uint8Array.from(ascii("this is not a video, just some words of text")))],
    ["zeros", () => wholeFile(new Uint8Array(100))],
    ["an empty file", () => wholeFile()],
  ])("%s is null", async (_name, file) => {
    expect(await mp4Duration(file())).toBeNull();
  });

  it("gives up after 32 top-level boxes", async () => {
    // ftyp and 30 boxes: moov is the 32nd; with one more it would be the 33rd.
    const boxes = Array.from({ length: 31 }, () => box("free", zeros(8)));
    expect(await mp4Duration(wholeFile(FTYP, ...boxes.slice(1), box("moov", mvhdV0(1000, 5000))))).toBe(5000);
    expect(await mp4Duration(wholeFile(FTYP, ...boxes, box("moov", mvhdV0(1000, 5000))))).toBeNull();
  });
});

// ——— WebM (EBML) ———

/** An EBML element with a one-byte size (the payloads here are small). */
const element = (id: number[], payload: number[]) => {
  if (payload.length > 126) throw new Error("payload too long for a one-byte size");
  return [...id, 0x80 | payload.length, ...payload];
};
const float64 = (value: number) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  return [...bytes];
};
const float32 = (value: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value);
  return [...bytes];
};
const uint = (value: number) => {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return bytes;
};

const EBML_HEADER = element(
  [0x1a, 0x45, 0xdf, 0xa3],
  [...element([0x42, 0x86], [1]), ...element([0x42, 0x82], ascii("webm"))],
);
/** A Segment of "unknown" size (all ones), as a live recorder writes it. */
const SEGMENT_UNKNOWN_SIZE = [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
const SEEK_HEAD = element([0x11, 0x4d, 0x9b, 0x74], element([0x4d, 0xbb], zeros(12)));
const VOID = element([0xec], zeros(20));
const CLUSTER = element([0x1f, 0x43, 0xb6, 0x75], zeros(40));
const timecodeScale = (ns: number) => element([0x2a, 0xd7, 0xb1], uint(ns));
const duration64 = (value: number) => element([0x44, 0x89], float64(value));
const duration32 = (value: number) => element([0x44, 0x89], float32(value));
const muxingApp = element([0x4d, 0x80], ascii("hand-built"));
const info = (...children: number[][]) => element([0x15, 0x49, 0xa9, 0x66], children.flat());
const webm = (...segmentChildren: number[][]) =>
  Uint8Array.from([...EBML_HEADER, ...SEGMENT_UNKNOWN_SIZE, ...segmentChildren.flat()]);

describe("WebM: the segment's Info", () => {
  it("reads Duration as a float64 in the default TimecodeScale (1 ms)", () => {
    expect(
      webmDurationMs(webm(SEEK_HEAD, VOID, info(timecodeScale(1_000_000), muxingApp, duration64(12_345)), CLUSTER)),
    ).toBe(12_345);
    // TimecodeScale is optional: 1 ms by default.
    expect(webmDurationMs(webm(info(duration64(59_999.6)), CLUSTER))).toBe(60_000);
  });

  it("reads Duration as a float32", () => {
    expect(webmDurationMs(webm(info(timecodeScale(1_000_000), duration32(42_000)), CLUSTER))).toBe(42_000);
  });

  it("multiplies by a custom TimecodeScale, wherever it sits in Info", () => {
    // Microseconds: 2.5 million of them.
    expect(webmDurationMs(webm(info(timecodeScale(1000), duration64(2_500_000))))).toBe(2500);
    // Duration before TimecodeScale (10 µs units).
    expect(webmDurationMs(webm(info(duration64(1_500_000), timecodeScale(10_000))))).toBe(15_000);
  });

  it("enters a Segment of known size too", () => {
    const children = [...info(timecodeScale(1_000_000), duration64(7000)), ...CLUSTER];
    const segment = [0x18, 0x53, 0x80, 0x67, 0x40 | (children.length >> 8), children.length & 0xff, ...children];
    expect(webmDurationMs(Uint8Array.from([...EBML_HEADER, ...segment]))).toBe(7000);
  });

  it("answers through videoDurationMs for video/webm, reading only the file's head", async () => {
    const head = webm(SEEK_HEAD, info(timecodeScale(1_000_000), duration64(33_000)), CLUSTER);
    const size = 500 * 1024 * 1024;
    const file = sparseFile(size, [{ at: 0, bytes: head }]);
    expect(await videoDurationMs(file.read, size, "video/webm")).toBe(33_000);
    expect(file.requests).toEqual([{ offset: 0, length: 64 * 1024 }]);
    // A small file is read whole, never past its end.
    const small = wholeFile(head);
    expect(await videoDurationMs(small.read, small.size, "video/webm")).toBe(33_000);
    expect(small.requests).toEqual([{ offset: 0, length: head.length }]);
  });

  it.each([
    ["no Duration (as MediaRecorder writes it)", webm(info(timecodeScale(1_000_000), muxingApp), CLUSTER)],
    ["no Info before the head ends", webm(SEEK_HEAD, CLUSTER)],
    ["a Duration of 2 bytes", webm(info(element([0x44, 0x89], [1, 2])))],
    ["a Duration that is not finite", webm(info(duration64(Number.POSITIVE_INFINITY)))],
    ["no EBML header", Uint8Array.from([...SEGMENT_UNKNOWN_SIZE, ...info(duration64(1000))])],
    ["text", Uint8Array.from(ascii("definitely not a webm file"))],
    ["zeros", new Uint8Array(64)],
    ["nothing", new Uint8Array(0)],
  ])("%s is null", (_name, bytes) => {
    expect(webmDurationMs(bytes)).toBeNull();
  });

  it("a WebM's bytes read as MP4 (wrong content type) are null, not a made-up length", async () => {
    const file = wholeFile(webm(info(duration64(5000))));
    expect(await mp4Duration(file)).toBeNull();
  });
});
