import type { LiveMediaView } from "@shared/contracts/live";
import type { LiveTransportKind } from "@shared/contracts/live-limits";
import type { Config } from "../env";
import { AppError } from "../domain/shared/errors";
import { message } from "@shared/messages";

const LIVE_VIDEO_UNAVAILABLE = message("Live video is not available right now. Try again in a moment.");

/** Where a stream's video goes in and comes out, made before the stream starts (whip only). */
interface LiveMediaInput {
  inputId: string | null;
  publishUrl: string | null;
  playUrl: string | null;
}

/**
 * How live video travels, chosen by LIVE_TRANSPORT (docs/decisions/live-transports.md). The Worker never carries video
 * (workerd has no WebRTC): it prepares where the browser publishes and plays, and hands those addresses only to
 * the creator (publish) and to who may watch (play), through GET /api/live/{id}/media.
 *
 * - `p2p`: the creator's browser sends to each viewer's browser, signalled through the stream's LiveRoom; nothing
 *   to prepare. For small audiences (LIVE_P2P_MAX_VIEWERS) and the local default.
 * - `whip`: the browser publishes with WHIP and viewers play with WHEP through an SFU: a Cloudflare Stream live
 *   input made per stream (CF_ACCOUNT_ID, CF_STREAM_API_TOKEN), or any WHIP/WHEP server by URL template
 *   (LIVE_WHIP_URL, LIVE_WHEP_URL; the tests' local relay).
 */
export interface LiveTransport {
  kind: LiveTransportKind;
  prepare(): Promise<LiveMediaInput>;
  release(inputId: string): Promise<void>;
}

const nothing: LiveMediaInput = { inputId: null, publishUrl: null, playUrl: null };

export function liveTransportOf(settings: Config, fetcher: typeof fetch = fetch): LiveTransport {
  if (settings.LIVE_TRANSPORT === "p2p") return { kind: "p2p", prepare: async () => nothing, release: async () => {} };
  if (settings.CF_ACCOUNT_ID && settings.CF_STREAM_API_TOKEN)
    return cloudflareStream(settings.CF_ACCOUNT_ID, settings.CF_STREAM_API_TOKEN, fetcher);
  const whip = settings.LIVE_WHIP_URL!;
  const whep = settings.LIVE_WHEP_URL!;
  return {
    kind: "whip",
    async prepare() {
      // A random name, not the stream's id: nobody can guess another stream's addresses.
      const key = crypto.randomUUID().replaceAll("-", "");
      return { inputId: key, publishUrl: whip.replaceAll("{stream}", key), playUrl: whep.replaceAll("{stream}", key) };
    },
    release: async () => {},
  };
}

interface StreamLiveInput {
  uid: string;
  webRTC?: { url?: string };
  webRTCPlayback?: { url?: string };
}

/** Cloudflare Stream: a live input per stream (POST …/stream/live_inputs), deleted when the stream ends. */
function cloudflareStream(accountId: string, token: string, fetcher: typeof fetch): LiveTransport {
  const base = `https://api.cloudflare.com/client/v4/accounts/${accountId}/stream/live_inputs`;
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  return {
    kind: "whip",
    async prepare() {
      try {
        const response = await fetcher(base, {
          method: "POST",
          headers,
          body: JSON.stringify({ recording: { mode: "off" }, meta: { name: "fanclub live" } }),
        });
        const body = (await response.json()) as { success?: boolean; result?: StreamLiveInput };
        const input = body.result;
        if (!response.ok || !input?.uid || !input.webRTC?.url || !input.webRTCPlayback?.url)
          throw new Error(`live_inputs answered ${response.status}`);
        return { inputId: input.uid, publishUrl: input.webRTC.url, playUrl: input.webRTCPlayback.url };
      } catch (error) {
        console.warn("Cloudflare Stream live input not made", error);
        throw new AppError("conflict", LIVE_VIDEO_UNAVAILABLE);
      }
    },
    async release(inputId) {
      const response = await fetcher(`${base}/${encodeURIComponent(inputId)}`, { method: "DELETE", headers });
      if (!response.ok && response.status !== 404)
        console.warn(`Cloudflare Stream live input ${inputId} not deleted: ${response.status}`);
    },
  };
}

/** What GET /api/live/{id}/media answers: the creator gets the publish address, who may watch the play address. */
export function liveMediaView(
  settings: Config,
  stream: { transport: LiveTransportKind; publish_url: string | null; play_url: string | null },
  isCreator: boolean,
): LiveMediaView {
  const iceServers = settings.LIVE_ICE_SERVERS;
  const loopbackOnly = settings.APP_ENV === "test";
  if (stream.transport === "p2p")
    return { transport: "p2p", iceServers, loopbackOnly, maxViewers: settings.LIVE_P2P_MAX_VIEWERS };
  return {
    transport: "whip",
    iceServers,
    loopbackOnly,
    publishUrl: isCreator ? stream.publish_url : null,
    playUrl: isCreator ? null : stream.play_url,
  };
}

/** Where the browser sends WHIP/WHEP requests (the page's connect-src): none for p2p. */
export function liveMediaOrigins(settings: Config): string[] {
  if (settings.LIVE_TRANSPORT !== "whip") return [];
  if (settings.CF_ACCOUNT_ID && settings.CF_STREAM_API_TOKEN) return ["https://*.cloudflarestream.com"];
  return [
    ...new Set(
      [settings.LIVE_WHIP_URL, settings.LIVE_WHEP_URL].flatMap((url) =>
        url ? [new URL(url.replaceAll("{stream}", "x")).origin] : [],
      ),
    ),
  ];
}
