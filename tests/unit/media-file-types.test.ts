import { describe, expect, it } from "vitest";
import { declaredFileType, detectFileType, matchesDeclared } from "../../worker/domain/media/file-types";

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)));

describe("detectFileType (magic bytes)", () => {
  it.each([
    ["JPEG", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"), "image/jpeg", "jpg"],
    ["PNG", bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], "IHDR"), "image/png", "png"],
    ["WebP", bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "), "image/webp", "webp"],
    ["GIF", bytes("GIF89a", [1, 0, 1, 0, 0, 0, 0]), "image/gif", "gif"],
    ["MP4", bytes([0, 0, 0, 0x18], "ftypisom", [0, 0, 2, 0]), "video/mp4", "mp4"],
    ["QuickTime", bytes([0, 0, 0, 0x14], "ftypqt  ", [0, 0, 2, 0]), "video/quicktime", "mov"],
    ["WebM", bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), "video/webm", "webm"],
  ])("recognises %s", (_name, file, contentType, extension) => {
    expect(detectFileType(file)).toMatchObject({ contentType, extension });
  });

  it.each([
    ["text", bytes("just some text, named photo.jpg")],
    ["HTML", bytes("<!DOCTYPE html><script>")],
    ["SVG", bytes("<svg xmlns='http://www.w3.org/2000/svg'>")],
    ["a RIFF that is not WebP (WAV)", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt ")],
    ["a HEIC photo (ISO media, not a video)", bytes([0, 0, 0, 0x18], "ftypheic", [0, 0, 0, 0], "mif1")],
    ["an AVIF photo", bytes([0, 0, 0, 0x1c], "ftypavif", [0, 0, 0, 0])],
    ["a truncated JPEG marker", bytes([0xff, 0xd8])],
    ["nothing", new Uint8Array()],
  ])("refuses %s", (_name, file) => {
    expect(detectFileType(file)).toBeNull();
  });
});

describe("declared types", () => {
  it("normalises browser spellings and refuses anything unsupported", () => {
    expect(declaredFileType("image/JPG")?.contentType).toBe("image/jpeg");
    expect(declaredFileType("video/mp4; codecs=avc1")?.contentType).toBe("video/mp4");
    expect(declaredFileType("image/svg+xml")).toBeNull();
    expect(declaredFileType("application/octet-stream")).toBeNull();
  });

  it("requires images to be what they claim; MP4 and QuickTime share a container", () => {
    const png = detectFileType(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a]))!;
    expect(matchesDeclared(png, declaredFileType("image/jpeg")!)).toBe(false);
    expect(matchesDeclared(png, declaredFileType("image/png")!)).toBe(true);
    const mov = detectFileType(bytes([0, 0, 0, 0x14], "ftypqt  "))!;
    expect(matchesDeclared(mov, declaredFileType("video/mp4")!)).toBe(true);
    expect(matchesDeclared(mov, declaredFileType("video/webm")!)).toBe(false);
  });
});
