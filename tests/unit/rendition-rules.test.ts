import { describe, expect, it } from "vitest";
import type { VideoFacts } from "../../worker/domain/media/inspect-video";
import { checkRendition } from "../../worker/domain/media/renditions/rules";

/**
 * worker/domain/media/renditions/rules.ts: each rule a rendition's facts may break has its own sentence (the answer
 * tells the uploader which), checked at its bounds. The bounds here are written out from shared/contracts/
 * rendition-specs.ts (360p: shorter side 360, 1 Mbit/s; 720p: 720, 3.5 Mbit/s; lengths within max(1 s, 2 %)).
 */

const MP4: VideoFacts = {
  container: "mp4",
  fastStart: true,
  videoCodec: "avc1.42e01e",
  audioCodec: "mp4a.40.2",
  width: 640,
  height: 360,
  durationMs: 10_000,
  samplesDurationMs: 10_000,
};
const WEBM: VideoFacts = {
  ...MP4,
  container: "webm",
  videoCodec: "vp09.00.10.08",
  audioCodec: "opus",
  samplesDurationMs: null,
};

const WRONG_CODECS = "A rendition must be H.264 with AAC in MP4, or VP9 or VP8 with Opus in WebM.";

describe("checkRendition", () => {
  it("accepts what the browsers make: H.264 (avc1, avc3) + AAC or silent in MP4, VP9 or VP8 + Opus or silent in WebM", () => {
    for (const facts of [
      MP4,
      { ...MP4, videoCodec: "avc3.640028" },
      { ...MP4, audioCodec: null },
      { ...MP4, audioCodec: "mp4a.40.5" },
      WEBM,
      { ...WEBM, videoCodec: "vp8" },
      { ...WEBM, audioCodec: null },
    ])
      expect(checkRendition("360p", facts, 100_000, 10_000), JSON.stringify(facts)).toBeNull();
  });

  it("refuses what it could not read", () => {
    expect(checkRendition("360p", null, 100_000, null)).toBe("This rendition is not a video the server can read.");
  });

  it.each([
    ["HEVC in MP4", { ...MP4, videoCodec: "hvc1" }],
    ["VP9 in MP4", { ...MP4, videoCodec: "vp09.00.10.08" }],
    ["Opus in MP4", { ...MP4, audioCodec: "opus" }],
    ["an avc1 without its profile", { ...MP4, videoCodec: "avc1" }],
    ["H.264 in WebM", { ...WEBM, videoCodec: "avc1.42e01e" }],
    ["AV1 in WebM", { ...WEBM, videoCodec: "V_AV1" }],
    ["Vorbis in WebM", { ...WEBM, audioCodec: "vorbis" }],
    ["AAC in WebM", { ...WEBM, audioCodec: "mp4a.40.2" }],
  ])("refuses %s", (_name, facts) => {
    expect(checkRendition("360p", facts, 100_000, 10_000)).toBe(WRONG_CODECS);
  });

  it("refuses an MP4 whose index comes after its media", () => {
    expect(checkRendition("360p", { ...MP4, fastStart: false }, 100_000, 10_000)).toBe(
      "An MP4 rendition must have its index at the start of the file (fast start).",
    );
  });

  it("holds the picture's shorter side to the quality's, landscape or portrait", () => {
    const tooLarge = "This rendition's picture is larger than its quality allows.";
    expect(checkRendition("360p", { ...MP4, width: 640, height: 360 }, 100_000, null)).toBeNull();
    expect(checkRendition("360p", { ...MP4, width: 360, height: 640 }, 100_000, null)).toBeNull();
    expect(checkRendition("360p", { ...MP4, width: 642, height: 362 }, 100_000, null)).toBe(tooLarge);
    expect(checkRendition("360p", { ...MP4, width: 362, height: 642 }, 100_000, null)).toBe(tooLarge);
    expect(checkRendition("720p", { ...MP4, width: 1280, height: 720 }, 100_000, null)).toBeNull();
    expect(checkRendition("720p", { ...MP4, width: 1282, height: 722 }, 100_000, null)).toBe(tooLarge);
  });

  it("needs a stated length, and an MP4's frames must bear it out within the tolerance", () => {
    const unknown = "This rendition does not state its length.";
    const inconsistent = "This rendition's stated length does not match its frames.";
    expect(checkRendition("360p", { ...WEBM, durationMs: null }, 100_000, null)).toBe(unknown);
    expect(checkRendition("360p", { ...MP4, durationMs: 0, samplesDurationMs: 0 }, 100_000, null)).toBe(unknown);
    expect(checkRendition("360p", { ...MP4, samplesDurationMs: null }, 100_000, null)).toBe(inconsistent);
    expect(checkRendition("360p", { ...MP4, samplesDurationMs: 11_000 }, 100_000, null)).toBeNull();
    expect(checkRendition("360p", { ...MP4, samplesDurationMs: 11_001 }, 100_000, null)).toBe(inconsistent);
    expect(checkRendition("360p", { ...MP4, samplesDurationMs: 8_999 }, 100_000, null)).toBe(inconsistent);
  });

  it("matches the original's length within the larger of 1 s and 2 %, when the original's is known", () => {
    const differs = "This rendition is not as long as the original video.";
    const long = { ...MP4, durationMs: 100_000, samplesDurationMs: 100_000 };
    expect(checkRendition("360p", MP4, 100_000, 11_000)).toBeNull();
    expect(checkRendition("360p", MP4, 100_000, 11_001)).toBe(differs);
    expect(checkRendition("360p", MP4, 100_000, 8_999)).toBe(differs);
    // 2 % of 102 s is more than a second.
    expect(checkRendition("360p", long, 100_000, 102_000)).toBeNull();
    expect(checkRendition("360p", long, 100_000, 104_100)).toBe(differs);
    expect(checkRendition("360p", { ...MP4, durationMs: 60_000, samplesDurationMs: 60_000 }, 100_000, null)).toBeNull();
  });

  it("holds the average bitrate over the whole file to the quality's bound", () => {
    const tooDense = "This rendition uses more bits per second than its quality allows.";
    // 10 s at 1 Mbit/s is 1.25 MB; at 3.5 Mbit/s, 4.375 MB.
    expect(checkRendition("360p", MP4, 1_250_000, null)).toBeNull();
    expect(checkRendition("360p", MP4, 1_250_001, null)).toBe(tooDense);
    expect(checkRendition("720p", { ...MP4, width: 1280, height: 720 }, 4_375_000, null)).toBeNull();
    expect(checkRendition("720p", { ...MP4, width: 1280, height: 720 }, 4_375_001, null)).toBe(tooDense);
  });
});
