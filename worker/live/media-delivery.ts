import type { DomainEvent } from "../domain/events";
import { config, type Env } from "../env";
import { liveTransportOf } from "./transports";

/** The live media adapter: a stream that ended gives its SFU input back (whip through Cloudflare Stream). */
export async function deliverToLiveMedia(env: Env, event: DomainEvent): Promise<void> {
  if (event.type !== "LiveEnded") return;
  const row = await env.DB.prepare("SELECT media_input_id FROM live_streams WHERE id = ?")
    .bind(event.streamId)
    .first<{ media_input_id: string | null }>();
  if (row?.media_input_id) await liveTransportOf(config(env)).release(row.media_input_id);
}
