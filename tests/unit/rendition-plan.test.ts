import { describe, expect, it } from "vitest";
import { chooseOutput, expectedBytes, plannedRenditions } from "../../app/lib/rendition-plan";

const sizes = (width: number, height: number) =>
  plannedRenditions(width, height).map(({ name, width, height }) => `${name} ${width}x${height}`);

describe("which renditions the browser makes of a video", () => {
  it("makes 360p and 720p of a 1080p phone video, lowest first, the shorter side fitted, landscape or portrait", () => {
    expect(sizes(1920, 1080)).toEqual(["360p 640x360", "720p 1280x720"]);
    expect(sizes(1080, 1920)).toEqual(["360p 360x640", "720p 720x1280"]);
    expect(plannedRenditions(1920, 1080)[0]).toMatchObject({ videoBitrate: 500_000, audioBitrate: 64_000 });
    expect(plannedRenditions(1920, 1080)[1]).toMatchObject({ videoBitrate: 2_000_000, audioBitrate: 128_000 });
  });

  it("makes 720p only of a source whose shorter side is above 540 pixels, and keeps a 720p source's size", () => {
    expect(sizes(960, 540)).toEqual(["360p 640x360"]);
    expect(sizes(854, 480)).toEqual(["360p 640x360"]);
    // 962 × 360 / 542 = 638.97: the nearest even is 638.
    expect(sizes(962, 542)).toEqual(["360p 638x360", "720p 962x542"]);
    expect(sizes(1280, 720)).toEqual(["360p 640x360", "720p 1280x720"]);
  });

  it("never scales a small source up: its 360p keeps its size (the low bitrate and the fast start are the gain)", () => {
    expect(sizes(160, 120)).toEqual(["360p 160x120"]);
  });

  it("gives both sides even, as H.264 and VP9 need, from odd sources and odd aspect ratios", () => {
    // 1000×562 at 360 high: 640.57 wide, rounded to the nearest even; an odd small source's sides rounded to even.
    expect(sizes(1000, 562)).toEqual(["360p 640x360", "720p 1000x562"]);
    expect(sizes(1001, 563)).toEqual(["360p 640x360", "720p 1002x564"]);
    expect(sizes(175, 99)).toEqual(["360p 176x100"]);
  });

  it("plans nothing for a video without a size", () => {
    expect(plannedRenditions(0, 0)).toEqual([]);
    expect(plannedRenditions(Number.NaN, 720)).toEqual([]);
  });

  it("expects about the renditions' bitrates times the length in bytes", () => {
    // 10 s: (500 000 + 64 000) / 8 × 10 + (2 000 000 + 128 000) / 8 × 10.
    expect(expectedBytes(plannedRenditions(1920, 1080), 10)).toBe(705_000 + 2_660_000);
  });
});

describe("which container and codecs the browser's encoders allow", () => {
  const none = { avc: false, aac: false, vp9: false, opus: false };

  it("makes fast-start MP4 with H.264 and the browser's own AAC where it has both", () => {
    expect(chooseOutput({ ...none, avc: true, aac: true }, true)).toEqual({
      container: "mp4",
      contentType: "video/mp4",
      video: "avc",
      audio: "aac",
      wasmAac: false,
    });
  });

  it("loads the WASM AAC encoder where the browser encodes H.264 but not AAC (Chromium on Linux), VP9 or not", () => {
    expect(chooseOutput({ ...none, avc: true, vp9: true, opus: true }, true)).toMatchObject({
      container: "mp4",
      wasmAac: true,
    });
    // A silent video needs no audio encoder at all.
    expect(chooseOutput({ ...none, avc: true }, false)).toMatchObject({ container: "mp4", wasmAac: false });
  });

  it("makes WebM with VP9 and Opus where H.264 cannot be encoded", () => {
    expect(chooseOutput({ ...none, vp9: true, opus: true }, true)).toEqual({
      container: "webm",
      contentType: "video/webm",
      video: "vp9",
      audio: "opus",
      wasmAac: false,
    });
    expect(chooseOutput({ ...none, vp9: true }, false)).toMatchObject({ container: "webm" });
  });

  it("makes nothing where neither can be made: the original goes alone", () => {
    expect(chooseOutput(none, true)).toBeNull();
    expect(chooseOutput(none, false)).toBeNull();
    // VP9 without Opus cannot carry the sound of a video that has some.
    expect(chooseOutput({ ...none, vp9: true, aac: true }, true)).toBeNull();
  });
});
