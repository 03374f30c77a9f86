import { describe, expect, it } from "vitest";
import type { RenditionView } from "@shared/contracts/renditions";
import { chooseSource, nextLower, sourcesOf } from "~/lib/rendition-choice";

// A landscape phone video: 640×360 at 0.6 Mbit/s and 1280×720 at 2.2 Mbit/s.
const LOW: RenditionView = {
  name: "360p",
  url: "/media/renditions/low.mp4",
  type: "video/mp4",
  width: 640,
  height: 360,
  bitrate: 600_000,
};
const HIGH: RenditionView = {
  name: "720p",
  url: "/media/renditions/high.mp4",
  type: "video/mp4",
  width: 1280,
  height: 720,
  bitrate: 2_200_000,
};
const sources = sourcesOf([LOW, HIGH], "/media/original.mov");
const LARGE = { width: 1920, height: 1080 };

const choose = (options: Partial<Parameters<typeof chooseSource>[0]>) =>
  chooseSource({ sources, network: null, throughput: null, display: LARGE, ...options }).name;

describe("chooseSource", () => {
  it("lists the renditions lowest first, then the original", () => {
    expect(sources.map((source) => [source.name, source.url])).toEqual([
      ["360p", "/media/renditions/low.mp4"],
      ["720p", "/media/renditions/high.mp4"],
      ["Original", "/media/original.mov"],
    ]);
  });

  it("picks 720p on a fast network with a large screen", () => {
    expect(choose({ network: { effectiveType: "4g", downlink: 10 } })).toBe("720p");
  });

  it("keeps to 360p when the network's estimate has less than 1.5× the 720p bitrate", () => {
    // 2.2 Mbit/s × 1.5 = 3.3 Mbit/s.
    expect(choose({ network: { effectiveType: "4g", downlink: 3.2 } })).toBe("360p");
    expect(choose({ network: { effectiveType: "4g", downlink: 3.3 } })).toBe("720p");
  });

  it.each(["slow-2g", "2g", "3g"])("keeps to 360p on %s whatever the downlink says", (effectiveType) => {
    expect(choose({ network: { effectiveType, downlink: 10 } })).toBe("360p");
  });

  it("keeps to 360p when the person asked to save data", () => {
    expect(choose({ network: { effectiveType: "4g", downlink: 10, saveData: true } })).toBe("360p");
  });

  it("keeps to 360p offline, the rendition a device keeps", () => {
    expect(choose({ network: { effectiveType: "4g", downlink: 10, offline: true } })).toBe("360p");
  });

  it("starts with 360p when the browser says nothing of the network, and follows the measured throughput", () => {
    expect(choose({})).toBe("360p");
    expect(choose({ throughput: 5_000_000 })).toBe("720p");
    expect(choose({ throughput: 3_000_000 })).toBe("360p");
  });

  it("trusts the measured throughput over the browser's estimate", () => {
    expect(choose({ network: { effectiveType: "4g", downlink: 10 }, throughput: 1_000_000 })).toBe("360p");
    expect(choose({ network: { effectiveType: "4g", downlink: 1 }, throughput: 8_000_000 })).toBe("720p");
  });

  it("keeps to 360p on a phone's narrow column, and takes 720p where the screen shows more than 576 pixels", () => {
    const fast = { effectiveType: "4g", downlink: 10 };
    // 360 CSS pixels × 1: the frame shows 203 pixels high; 720 > 203 × 1.25.
    expect(choose({ network: fast, display: { width: 360, height: 203 } })).toBe("360p");
    // 576 × 1.25 = 720: enough for 720p.
    expect(choose({ network: fast, display: { width: 1024, height: 576 } })).toBe("720p");
    expect(choose({ network: fast, display: { width: 1020, height: 574 } })).toBe("360p");
    // The same column at a density of 3: 1080 × 608 device pixels.
    expect(choose({ network: fast, display: { width: 1080, height: 608 } })).toBe("720p");
  });

  it("fits the frame into the display: a landscape video on a portrait screen shows only the screen's width", () => {
    const fast = { effectiveType: "4g", downlink: 10 };
    // A 1080×1920 portrait screen: the 16:9 frame is 1080 wide, 608 high.
    expect(choose({ network: fast, display: { width: 1080, height: 1920 } })).toBe("720p");
    expect(choose({ network: fast, display: { width: 720, height: 1280 } })).toBe("360p");
  });

  it("plays the original only when chosen by hand or when there are no renditions", () => {
    expect(choose({ throughput: 100_000_000 })).toBe("720p");
    expect(choose({ manual: "Original" })).toBe("Original");
    const only = sourcesOf([], "/media/original.mov");
    expect(chooseSource({ sources: only, network: { saveData: true }, throughput: null, display: null })).toEqual(
      only[0],
    );
  });

  it("follows a manual choice whatever the network, and ignores one the video does not have", () => {
    expect(choose({ network: { effectiveType: "2g" }, manual: "720p" })).toBe("720p");
    const lowOnly = sourcesOf([LOW], "/media/original.mov");
    expect(
      chooseSource({ sources: lowOnly, network: null, throughput: 50_000_000, display: LARGE, manual: "720p" }).name,
    ).toBe("360p");
  });
});

describe("nextLower", () => {
  it("steps down one rendition at a time, the original to the highest rendition", () => {
    expect(nextLower(sources, "Original")?.name).toBe("720p");
    expect(nextLower(sources, "720p")?.name).toBe("360p");
    expect(nextLower(sources, "360p")).toBeNull();
    expect(nextLower(sourcesOf([], "/media/original.mov"), "Original")).toBeNull();
  });
});
