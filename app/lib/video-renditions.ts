/**
 * A video's renditions made in the uploader's browser with mediabunny (WebCodecs): the sizes and codecs that
 * app/lib/rendition-plan.ts chooses, each a whole file in memory. Loaded only by a dynamic import when a video is
 * uploaded (app/lib/uploads.ts): mediabunny, and the WASM AAC encoder where the browser has none, are big.
 */
import {
  ALL_FORMATS,
  BlobSource,
  BufferTarget,
  canEncodeAudio,
  canEncodeVideo,
  Conversion,
  Input,
  Mp4OutputFormat,
  Output,
  Quality,
  WebMOutputFormat,
  type InputAudioTrack,
} from "mediabunny";
import type { RenditionName } from "@shared/contracts/rendition-specs";
import {
  chooseOutput,
  expectedBytes,
  plannedRenditions,
  type OutputChoice,
  type PlannedRendition,
} from "~/lib/rendition-plan";

export interface Rendition {
  name: RenditionName;
  blob: Blob;
  contentType: "video/mp4" | "video/webm";
}

export interface MakeRenditionsOptions {
  /** 0..1 across all the renditions, in steps of at least a percent. */
  onProgress?: (fraction: number) => void;
  /** As soon as the renditions are chosen: about how many bytes they will have. */
  onPlanned?: (expectedBytes: number) => void;
  signal?: AbortSignal;
}

/**
 * The renditions of `file`, lowest first, or "unsupported" where the browser cannot make them (no WebCodecs, no
 * encoder for either output, a source it cannot decode, a conversion that fails): then the original goes alone.
 * Aborting the signal cancels the conversion and rejects with an AbortError.
 */
export async function makeRenditions(
  file: Blob,
  options: MakeRenditionsOptions = {},
): Promise<Rendition[] | "unsupported"> {
  if (typeof VideoEncoder === "undefined") return "unsupported";
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  try {
    const video = await input.getPrimaryVideoTrack();
    if (!video) return "unsupported";
    const audio = await input.getPrimaryAudioTrack();
    const plan = plannedRenditions(await video.getDisplayWidth(), await video.getDisplayHeight());
    const output = plan.length > 0 ? await outputFor(plan.at(-1)!, audio) : null;
    if (!output) return "unsupported";
    if (output.wasmAac) await registerWasmAac();
    options.onPlanned?.(expectedBytes(plan, await input.computeDuration()));

    // Progress weighs each rendition by its pixels: encoding is most of the work.
    const weights = plan.map((rendition) => rendition.width * rendition.height);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let reported = -1;
    const report = (fraction: number) => {
      const percent = Math.floor(Math.min(1, fraction) * 100);
      if (percent > reported) options.onProgress?.(percent / 100);
      reported = Math.max(reported, percent);
    };
    report(0);
    const renditions: Rendition[] = [];
    let done = 0;
    for (const [index, planned] of plan.entries()) {
      const blob = await convert(input, planned, output, options.signal, (fraction) =>
        report((done + fraction * weights[index]!) / total),
      );
      if (!blob) return "unsupported";
      renditions.push({ name: planned.name, blob, contentType: output.contentType });
      done += weights[index]!;
    }
    report(1);
    return renditions;
  } catch (error) {
    if (options.signal?.aborted) throw new DOMException("aborted", "AbortError");
    console.warn("renditions not made", error);
    return "unsupported";
  } finally {
    input.dispose();
  }
}

/** The output for this browser, its encoders asked at the largest rendition's size and bitrate. */
async function outputFor(largest: PlannedRendition, audio: InputAudioTrack | null): Promise<OutputChoice | null> {
  const size = { width: largest.width, height: largest.height };
  const videoQuality = new Quality({ bitrate: largest.videoBitrate });
  const audioConfig = audio
    ? {
        numberOfChannels: await audio.getNumberOfChannels(),
        sampleRate: await audio.getSampleRate(),
        quality: new Quality({ bitrate: largest.audioBitrate }),
      }
    : undefined;
  const [avc, aac, vp9, opus] = await Promise.all([
    canEncodeVideo("avc", { ...size, quality: videoQuality }),
    audio ? canEncodeAudio("aac", audioConfig) : false,
    canEncodeVideo("vp9", { ...size, quality: videoQuality }),
    audio ? canEncodeAudio("opus", audioConfig) : false,
  ]);
  return chooseOutput({ avc, aac, vp9, opus }, audio !== null);
}

let wasmAacRegistered = false;
async function registerWasmAac() {
  if (wasmAacRegistered) return;
  const { registerAacEncoder } = await import("@mediabunny/aac-encoder");
  registerAacEncoder();
  wasmAacRegistered = true;
}

/** One rendition as a whole file, or null when the conversion would have no video (a track it cannot decode). */
async function convert(
  input: Input,
  planned: PlannedRendition,
  output: OutputChoice,
  signal: AbortSignal | undefined,
  onProgress: (fraction: number) => void,
): Promise<Blob | null> {
  signal?.throwIfAborted();
  const target = new BufferTarget();
  const conversion = await Conversion.init({
    input,
    output: new Output({
      // Fast start: the index (moov) before the media, so that a phone plays from the first bytes it gets.
      format: output.container === "mp4" ? new Mp4OutputFormat({ fastStart: "in-memory" }) : new WebMOutputFormat(),
      target,
    }),
    tracks: "primary",
    video: {
      codec: output.video,
      width: planned.width,
      height: planned.height,
      fit: "fill",
      quality: new Quality({ bitrate: planned.videoBitrate }),
      // Rotation drawn into the frames: the size the server checks is the size a player shows.
      allowTransformationMetadata: false,
      forceTranscode: true,
    },
    audio: { codec: output.audio, quality: new Quality({ bitrate: planned.audioBitrate }), forceTranscode: true },
    // A phone's recording may carry where it was made; a rendition carries none of the original's tags.
    tags: {},
    showWarnings: false,
  });
  if (!conversion.isValid || !conversion.utilizedTracks.some((track) => track.isVideoTrack())) {
    console.warn("renditions not made: tracks discarded", conversion.discardedTracks);
    return null;
  }
  const cancel = () => void conversion.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  conversion.onProgress = onProgress;
  try {
    await conversion.execute();
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
  return new Blob([target.buffer!], { type: output.contentType });
}
