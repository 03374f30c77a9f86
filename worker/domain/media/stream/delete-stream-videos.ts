import { config, type Env } from "../../../env";
import type { StoredKeys } from "../uploads";
import { streamClientOf } from "./client";

/**
 * Deletes the Stream videos of media being deleted. Best effort, like the R2 objects': a failure is logged and the
 * rows go anyway (a video left behind costs storage, never access: it plays only with a token this app signs).
 */
export async function deleteStreamVideos(
  env: Env,
  rows: Pick<StoredKeys, "stream_uid">[],
  fetcher?: typeof fetch,
): Promise<void> {
  const uids = rows.flatMap((row) => (row.stream_uid ? [row.stream_uid] : []));
  if (uids.length === 0) return;
  const settings = config(env);
  if (!settings.CF_ACCOUNT_ID || !settings.CF_STREAM_API_TOKEN) {
    console.warn("Cloudflare Stream videos not deleted: CF_ACCOUNT_ID and CF_STREAM_API_TOKEN are unset", uids);
    return;
  }
  const client = streamClientOf(settings, fetcher);
  await Promise.all(
    uids.map((uid) =>
      client
        .deleteVideo(uid)
        .catch((error: unknown) => console.warn("Cloudflare Stream video not deleted", uid, error)),
    ),
  );
}
