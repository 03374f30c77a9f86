import type { Env } from "./env";
import { pruneRateLimits } from "./domain/auth/rate-limit";
import { publishDueScheduledPosts } from "./domain/posts/publish-scheduled";
import { discardAbandonedUploads } from "./domain/media/discard-abandoned-uploads";
import { releaseDueEarnings } from "./domain/money/release-earnings";
import { expireAbandonedSandboxTopUps } from "./domain/money/top-ups";
import { isoNow } from "./domain/shared/time";
import { renewSubscriptions } from "./domain/subscriptions/renew-subscriptions";

/** The cron trigger's work (wrangler.toml [triggers]). Each job is idempotent, so a retried run is harmless. */
export async function runScheduledJobs(env: Env): Promise<void> {
  await publishDueScheduledPosts(env);
  await pruneRateLimits(env.DB);
  await env.DB.prepare("DELETE FROM one_time_tokens WHERE expires_at < ?").bind(isoNow()).run();
  await env.DB.prepare("DELETE FROM sessions WHERE expires_at < ?").bind(isoNow()).run();
  await renewSubscriptions(env);
  await releaseDueEarnings(env);
  await expireAbandonedSandboxTopUps(env);
  await discardAbandonedUploads(env);
}
