import type { RenditionView } from "@shared/contracts/renditions";

/** What a video can play: its renditions by name, then the uploaded file as "Original". */
export type Quality = RenditionView["name"] | "Original";

export interface Source {
  name: Quality;
  url: string;
  /** Bits per second; unknown for the original. */
  bitrate: number | null;
  width: number | null;
  height: number | null;
}

/** navigator.connection's figures, where the browser has them (Chromium; not Safari or Firefox). */
export interface NetworkHint {
  effectiveType?: string;
  /** Mbit/s, the browser's estimate. */
  downlink?: number;
  saveData?: boolean;
  /** navigator.onLine is false: only the lowest rendition may be on this device (app/sw/media-cache.ts). */
  offline?: boolean;
}

export interface Display {
  /** Device pixels the video may fill: the element's CSS size × devicePixelRatio. */
  width: number;
  height: number;
}

/** A rendition needs this much more bandwidth than its average bitrate to play without stalling. */
const HEADROOM = 1.5;
/** A rendition this much larger than the screen shows still looks sharper; beyond it, its bytes are wasted. */
const OVERSIZE = 1.25;
/**
 * What a network that says nothing of itself (Safari, Firefox, no measurement yet) is assumed to carry: enough for
 * the lowest rendition only, as hls.js assumes, so that a phone on a slow network starts quickly; a measured
 * throughput raises it for the next choices.
 */
const UNKNOWN_BITS_PER_SECOND = 1_000_000;
const SLOW_NETWORKS = new Set(["slow-2g", "2g", "3g"]);

/** The renditions (lowest first, as the server lists them), then the original. */
export const sourcesOf = (renditions: readonly RenditionView[], originalUrl: string): Source[] => [
  ...renditions.map(({ name, url, bitrate, width, height }) => ({ name, url, bitrate, width, height })),
  { name: "Original", url: originalUrl, bitrate: null, width: null, height: null },
];

/**
 * The source to play. A manual choice wins when the video has it. Otherwise the highest rendition the network
 * carries with room to spare and the screen can show; the lowest when none fits, the original only when there are
 * no renditions. `throughput` is what this page measured (bits/s), more telling than the browser's hint.
 */
export function chooseSource({
  sources,
  network,
  throughput,
  display,
  manual,
}: {
  sources: readonly Source[];
  network: NetworkHint | null;
  throughput: number | null;
  display: Display | null;
  manual?: Quality | null;
}): Source {
  const chosen = manual && sources.find((source) => source.name === manual);
  if (chosen) return chosen;
  const renditions = sources.filter((source) => source.name !== "Original");
  if (renditions.length === 0) return sources[sources.length - 1]!;
  const slow =
    network?.saveData === true || network?.offline === true || SLOW_NETWORKS.has(network?.effectiveType ?? "");
  const bandwidth = throughput ?? (network?.downlink ? network.downlink * 1_000_000 : UNKNOWN_BITS_PER_SECOND);
  const carried = (source: Source) => !slow && (source.bitrate ?? Infinity) * HEADROOM <= bandwidth;
  const shown = (source: Source) => !display || shortSide(source) <= displayedShortSide(source, display) * OVERSIZE;
  return renditions
    .slice(1)
    .reduce((best, source) => (carried(source) && shown(source) ? source : best), renditions[0]!);
}

/** The next source down from `current` (the original's is the highest rendition), or null at the lowest. */
export function nextLower(sources: readonly Source[], current: Quality): Source | null {
  const index = sources.findIndex((source) => source.name === current);
  return index > 0 ? sources[index - 1]! : null;
}

const shortSide = (source: Source) => Math.min(source.width ?? 0, source.height ?? 0);

/** The shorter side of the frame as the screen would show it: scaled to fit the display, keeping its shape. */
function displayedShortSide(source: Source, display: Display) {
  if (!source.width || !source.height) return Math.min(display.width, display.height);
  const scale = Math.min(display.width / source.width, display.height / source.height);
  return scale * shortSide(source);
}
