import { nowMs } from "@shared/clock";
import type { Config } from "../../../env";

/** A video's state in Stream, as far as this app cares. */
export type StreamVideoState =
  | { state: "pending" }
  | { state: "ready"; durationMs: number | null; width: number | null; height: number | null }
  | { state: "failed"; reason: string };

/** Only what the app calls: a direct creator upload (tus), a video's state, its deletion. */
export interface StreamClient {
  /**
   * A one-time tus URL where the uploader's browser sends `size` bytes itself (our API token never reaches it):
   * signed URLs required to play, Stream refusing videos longer than `maxDurationSeconds`.
   */
  createUpload(size: number, maxDurationSeconds: number): Promise<{ uid: string; uploadUrl: string }>;
  getVideo(uid: string): Promise<StreamVideoState>;
  /** Deleted, or already gone. */
  deleteVideo(uid: string): Promise<void>;
}

/** How long the one-time upload URL takes bytes: Stream allows at most 6 hours (expiry in Upload-Metadata). */
const UPLOAD_URL_LIFETIME_MS = 5 * 60 * 60 * 1000;

const base64 = (text: string) => btoa(text);

interface StreamVideo {
  readyToStream?: boolean;
  status?: { state?: string; errorReasonCode?: string; errorReasonText?: string };
  duration?: number;
  input?: { width?: number; height?: number };
}

/** Stream's "unknown" is -1; a missing field is unknown too. */
const known = (value: number | undefined) => (value !== undefined && value > 0 ? value : null);

/**
 * The Stream API client of VIDEO_PIPELINE=stream (docs/decisions/video-in-cloudflare-stream.md). Failures throw
 * with what Stream answered; callers decide whether a request fails or a job tries again.
 */
export function streamClientOf(
  settings: Config,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): StreamClient {
  const videos = `${settings.CF_STREAM_API_URL.replace(/\/+$/, "")}/accounts/${settings.CF_ACCOUNT_ID}/stream`;
  const authorization = { Authorization: `Bearer ${settings.CF_STREAM_API_TOKEN}` };
  const videoUrl = (uid: string) => `${videos}/${encodeURIComponent(uid)}`;
  return {
    async createUpload(size, maxDurationSeconds) {
      const expiry = new Date(nowMs() + UPLOAD_URL_LIFETIME_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
      const response = await fetcher(`${videos}?direct_user=true`, {
        method: "POST",
        headers: {
          ...authorization,
          "Tus-Resumable": "1.0.0",
          "Upload-Length": String(size),
          // Keys plain, values base64; a key alone is a flag (requiresignedurls).
          "Upload-Metadata": [
            `maxDurationSeconds ${base64(String(maxDurationSeconds))}`,
            "requiresignedurls",
            `expiry ${base64(expiry)}`,
          ].join(","),
        },
      });
      const uploadUrl = response.headers.get("Location");
      const uid = response.headers.get("stream-media-id");
      if (response.status !== 201 || !uploadUrl || !uid)
        throw new Error(`Stream tus upload answered ${response.status}`);
      return { uid, uploadUrl };
    },
    async getVideo(uid) {
      const response = await fetcher(videoUrl(uid), { headers: authorization });
      // A video whose upload never started, or that Stream dropped, is as good as failed.
      if (response.status === 404) return { state: "failed", reason: "not found" };
      const body = (await response.json()) as { success?: boolean; result?: StreamVideo };
      const video = body.result;
      if (!response.ok || !video) throw new Error(`Stream video ${uid} answered ${response.status}`);
      if (video.status?.state === "error")
        return { state: "failed", reason: video.status.errorReasonCode ?? video.status.errorReasonText ?? "error" };
      if (!video.readyToStream) return { state: "pending" };
      const seconds = known(video.duration);
      return {
        state: "ready",
        durationMs: seconds === null ? null : Math.round(seconds * 1000),
        width: known(video.input?.width),
        height: known(video.input?.height),
      };
    },
    async deleteVideo(uid) {
      const response = await fetcher(videoUrl(uid), { method: "DELETE", headers: authorization });
      if (!response.ok && response.status !== 404) throw new Error(`Stream delete ${uid} answered ${response.status}`);
    },
  };
}
