import { describe, expect, it } from "vitest";
import {
  exifOrientation,
  orientationSegment,
  stripGif,
  stripImageMetadata,
  stripJpeg,
  stripPng,
  stripWebp,
} from "../../worker/domain/media/strip-metadata";
import { ascii, buildJpeg, contains, exifPayload, GPS_TAG, PNG_1x1, segment } from "../support/media-fixtures";

const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => u32be(n).reverse();
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];

describe("JPEG", () => {
  it("drops Exif with GPS, XMP and comments, keeping the image data and its size", () => {
    const original = buildJpeg({ gps: true, comment: "at home", width: 640, height: 480 });
    const clean = stripJpeg(original)!;
    for (const trace of ["Exif", "xmpmeta", "at home"]) expect(contains(clean.bytes, trace)).toBe(false);
    expect(contains(clean.bytes, GPS_TAG)).toBe(false);
    expect(contains(clean.bytes, "JFIF")).toBe(true);
    expect([...clean.bytes.subarray(-5)]).toEqual([0x12, 0x34, 0x56, 0xff, 0xd9]);
    expect(clean).toMatchObject({ width: 640, height: 480 });
  });

  it("keeps the orientation alone in a minimal Exif, and reports the displayed size", () => {
    const clean = stripJpeg(buildJpeg({ orientation: 6, gps: true, width: 640, height: 480 }))!;
    expect(contains(clean.bytes, [...orientationSegment(6)])).toBe(true);
    expect(contains(clean.bytes, GPS_TAG)).toBe(false);
    expect(exifOrientation(orientationSegment(6).subarray(4))).toBe(6);
    expect(clean).toMatchObject({ width: 480, height: 640 });
    // Orientation 1 is written back as such; no other Exif field is.
    expect(contains(stripJpeg(buildJpeg({ orientation: 1 }))!.bytes, [...orientationSegment(1)])).toBe(true);
  });

  it("keeps every scan of a progressive JPEG, the ICC profile, and nothing after the end of image", () => {
    const scan = (data: number[]) => [...segment(0xda, [1, 1, 0, 0, 0x3f, 0]), ...data];
    const iccProfile = segment(0xe2, [...ascii("ICC_PROFILE"), 0, 1, 1, 9, 9]);
    const head = [
      0xff,
      0xd8,
      ...iccProfile,
      ...segment(0xe2, [...ascii("MPF"), 0, 1, 2]),
      ...segment(0xc2, [8, 0, 2, 0, 3, 1, 1, 0x11, 0]),
    ];
    // Stuffed 0xFF00 bytes and a restart marker belong to the scan; a DHT between scans is a segment.
    const body = [
      ...scan([0x11, 0xff, 0x00, 0x22, 0xff, 0xd0, 0x33]),
      ...segment(0xc4, [0x10, 1]),
      ...scan([0x44, 0x55]),
    ];
    const appended = [0xff, 0xd8, ...segment(0xe1, exifPayload({ gps: true })), 0xff, 0xd9];
    const clean = stripJpeg(Uint8Array.from([...head, ...body, 0xff, 0xd9, ...appended]))!;
    expect([...clean.bytes]).toEqual([
      0xff,
      0xd8,
      ...iccProfile,
      ...segment(0xc2, [8, 0, 2, 0, 3, 1, 1, 0x11, 0]),
      ...body,
      0xff,
      0xd9,
    ]);
    expect(clean).toMatchObject({ width: 3, height: 2 });
  });

  it("refuses truncated or malformed files", () => {
    const original = buildJpeg({ gps: true });
    expect(stripJpeg(original.subarray(0, 30))).toBeNull();
    expect(stripJpeg(Uint8Array.from([0xff, 0xd8, 0x00, 0x00, 0x00, 0x00]))).toBeNull();
    expect(stripImageMetadata("image/jpeg", new TextEncoder().encode("hello"))).toBeNull();
  });
});

/** A PNG chunk; the CRC is not checked by the stripper, so any value does. */
const chunk = (type: string, data: number[]) => [...u32be(data.length), ...ascii(type), ...data, 0, 0, 0, 0];

describe("PNG", () => {
  it("drops eXIf, text and time chunks and keeps the image chunks in order", () => {
    const png = Uint8Array.from([
      0x89,
      ...ascii("PNG"),
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...chunk("IHDR", [...u32be(800), ...u32be(600), 8, 6, 0, 0, 0]),
      ...chunk("tEXt", ascii("Comment\0secret place")),
      ...chunk("eXIf", ascii("MM\0*GPSdata")),
      ...chunk("iTXt", ascii("XML:com.adobe.xmp\0\0\0\0\0<xmp/>")),
      ...chunk("zTXt", ascii("Author\0\0xx")),
      ...chunk("tIME", [7, 0xe9, 1, 2, 3, 4, 5]),
      ...chunk("IDAT", [1, 2, 3]),
      ...chunk("IEND", []),
    ]);
    const clean = stripPng(png)!;
    for (const trace of ["tEXt", "eXIf", "iTXt", "zTXt", "tIME", "secret place", "GPSdata"])
      expect(contains(clean.bytes, trace)).toBe(false);
    expect([...clean.bytes]).toEqual([
      0x89,
      ...ascii("PNG"),
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...chunk("IHDR", [...u32be(800), ...u32be(600), 8, 6, 0, 0, 0]),
      ...chunk("IDAT", [1, 2, 3]),
      ...chunk("IEND", []),
    ]);
    expect(clean).toMatchObject({ width: 800, height: 600 });
  });
});

const riffChunk = (type: string, data: number[]) => [
  ...ascii(type),
  ...u32le(data.length),
  ...data,
  ...(data.length % 2 ? [0] : []),
];

describe("WebP", () => {
  it("drops EXIF and XMP chunks, clears their VP8X flags and fixes the RIFF size", () => {
    const ICC_FLAG = 0x20;
    const body = [
      ...ascii("WEBP"),
      ...riffChunk("VP8X", [ICC_FLAG | 0x08 | 0x04, 0, 0, 0, ...u24le(1023), ...u24le(767)]),
      ...riffChunk("ICCP", [1, 2, 3, 4]),
      ...riffChunk("VP8L", [0x2f, 0, 0, 0, 0]),
      ...riffChunk("EXIF", ascii("MM\0*GPS")),
      ...riffChunk("XMP ", ascii("<x:xmpmeta/>")),
    ];
    const webp = Uint8Array.from([...ascii("RIFF"), ...u32le(body.length), ...body]);
    const clean = stripWebp(webp)!;
    expect(contains(clean.bytes, "EXIF")).toBe(false);
    expect(contains(clean.bytes, "XMP ")).toBe(false);
    expect(contains(clean.bytes, "ICCP")).toBe(true);
    const view = new DataView(clean.bytes.buffer, clean.bytes.byteOffset);
    expect(view.getUint32(4, true)).toBe(clean.bytes.length - 8);
    expect(clean.bytes[20]).toBe(ICC_FLAG);
    expect(clean).toMatchObject({ width: 1024, height: 768 });
    // The caller's bytes are left as they were.
    expect(webp[20]).toBe(ICC_FLAG | 0x08 | 0x04);
  });
});

describe("GIF", () => {
  it("drops comments and XMP application extensions, keeps looping, frames and palettes", () => {
    const header = [...ascii("GIF89a"), 2, 0, 3, 0, 0x80, 0, 0, ...[0, 0, 0, 255, 255, 255]];
    const loop = [0x21, 0xff, 11, ...ascii("NETSCAPE2.0"), 3, 1, 0, 0, 0];
    const comment = [0x21, 0xfe, 9, ...ascii("GPS 48.8N"), 0];
    const xmp = [0x21, 0xff, 11, ...ascii("XMP DataXMP"), 5, ...ascii("<xmp>"), 0];
    const control = [0x21, 0xf9, 4, 0, 10, 0, 0, 0];
    const frame = [0x2c, 0, 0, 0, 0, 2, 0, 3, 0, 0, 2, 2, 0x44, 0x01, 0];
    const gif = Uint8Array.from([...header, ...loop, ...comment, ...xmp, ...control, ...frame, 0x3b]);
    const clean = stripGif(gif)!;
    expect([...clean.bytes]).toEqual([...header, ...loop, ...control, ...frame, 0x3b]);
    expect(clean).toMatchObject({ width: 2, height: 3 });
    expect(stripGif(gif.subarray(0, gif.length - 4))).toBeNull();
  });
});

describe("a file cut off before its end is not an image", () => {
  const IEND = [0, 0, 0, 0, ...ascii("IEND"), 0xae, 0x42, 0x60, 0x82];

  it("PNG: only up to and including its IEND chunk", () => {
    expect(PNG_1x1.length).toBe(70);
    expect([...PNG_1x1.subarray(-12)]).toEqual(IEND);
    expect(stripPng(PNG_1x1)).toMatchObject({ width: 1, height: 1 });
    expect(stripPng(PNG_1x1.subarray(0, 40))).toBeNull(); // the signature, IHDR and a few bytes of IDAT
    expect(stripPng(PNG_1x1.subarray(0, 33))).toBeNull(); // the signature and IHDR, to the byte
    expect(stripPng(PNG_1x1.subarray(0, 58))).toBeNull(); // every chunk but IEND
    expect(stripPng(PNG_1x1.subarray(0, 69))).toBeNull();
    const appended = stripPng(Uint8Array.from([...PNG_1x1, 1, 2, 3]))!;
    expect([...appended.bytes.subarray(-12)]).toEqual(IEND);
  });

  it("JPEG: only up to its end of image (EOI); what follows EOI is dropped, not refused", () => {
    const jpeg = buildJpeg();
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(stripJpeg(jpeg.subarray(0, jpeg.length - 2))).toBeNull(); // inside the image data
    expect(stripJpeg(jpeg.subarray(0, jpeg.length - 1))).toBeNull(); // half the EOI marker
    const motionPhoto = stripJpeg(Uint8Array.from([...jpeg, ...ascii("....ftypmp42 a clip")]))!;
    expect([...motionPhoto.bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it("WebP: only with every byte its RIFF header counts", () => {
    const body = [...ascii("WEBP"), ...riffChunk("VP8L", [0x2f, 0, 0, 0, 0]), ...riffChunk("ICCP", [1, 2, 3, 4])];
    const webp = Uint8Array.from([...ascii("RIFF"), ...u32le(body.length), ...body]);
    expect(stripWebp(webp)).toMatchObject({ width: 1, height: 1 });
    expect(stripWebp(webp.subarray(0, webp.length - 12))).toBeNull(); // cut where the ICCP chunk starts
    expect(stripWebp(webp.subarray(0, webp.length - 1))).toBeNull();
  });

  it("GIF: only up to its trailer", () => {
    const header = [...ascii("GIF89a"), 1, 0, 1, 0, 0x80, 0, 0, ...[0, 0, 0, 255, 255, 255]];
    const frame = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
    expect(stripGif(Uint8Array.from([...header, ...frame, 0x3b]))).toMatchObject({ width: 1, height: 1 });
    expect(stripGif(Uint8Array.from([...header, ...frame]))).toBeNull();
  });
});
