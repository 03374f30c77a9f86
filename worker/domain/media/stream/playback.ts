import type { Config } from "../../../env";
import { nowMs } from "@shared/clock";
import { base64url } from "../../shared/crypto";
import { signingKeyOf } from "./signing-key";

/**
 * How long a signed manifest plays. Long enough for a long video watched with pauses; short enough that a link
 * copied out of the page, or kept by someone whose subscription then ended, stops working the same day (Stream
 * accepts at most 24 hours).
 */
const PLAYBACK_TOKEN_SECONDS = 4 * 60 * 60;

const encoder = new TextEncoder();
const jsonPart = (value: object) => base64url(encoder.encode(JSON.stringify(value)));

/**
 * With Cloudflare Stream (VIDEO_PIPELINE=stream): the HLS manifest of a video kept there, signed for a short while
 * (a locked post's video plays only with a token the server made for a viewer it let in). Null when the video is
 * not in Stream or Stream is not configured. The token is an RS256 JWT made here with the account's signing key
 * (no call to Stream per view): `sub` the video, `kid` the key, `exp` its end.
 */
export async function streamHlsUrl(settings: Config, streamUid: string | null): Promise<string | null> {
  const { VIDEO_PIPELINE, CF_STREAM_CUSTOMER_CODE: code, CF_STREAM_SIGNING_KEY_ID: kid } = settings;
  const key = settings.CF_STREAM_SIGNING_KEY;
  if (!streamUid || VIDEO_PIPELINE !== "stream" || !code || !kid || !key) return null;
  const exp = Math.floor(nowMs() / 1000) + PLAYBACK_TOKEN_SECONDS;
  const unsigned = `${jsonPart({ alg: "RS256", kid })}.${jsonPart({ sub: streamUid, kid, exp })}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", await signingKeyOf(key), encoder.encode(unsigned));
  return `https://customer-${code}.cloudflarestream.com/${unsigned}.${base64url(new Uint8Array(signature))}/manifest/video.m3u8`;
}

/** The origins the page talks to in stream mode (its CSP): the tus upload host and where videos play. */
export function streamMediaOrigins(settings: Config): { upload: string[]; play: string[] } {
  if (settings.VIDEO_PIPELINE !== "stream") return { upload: [], play: [] };
  const api = new URL(settings.CF_STREAM_API_URL).origin;
  // Stream's direct uploads answer tus URLs on upload.videodelivery.net; another API (a fake) on its own host.
  const upload = api === "https://api.cloudflare.com" ? "https://upload.videodelivery.net" : api;
  return { upload: [upload], play: [`https://customer-${settings.CF_STREAM_CUSTOMER_CODE}.cloudflarestream.com`] };
}
