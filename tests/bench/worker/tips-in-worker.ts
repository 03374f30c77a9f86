import { publishNowhere } from "../../../worker/domain/events";
import { z } from "zod";
import { AppError } from "../../../worker/domain/shared/errors";
import { sendTip } from "../../../worker/domain/money/send-tip";
import { config, type Env } from "../../../worker/env";
import { pickOne, runFor, usersNamed } from "./concurrent";

const TipsInWorkerSchema = z.object({
  fans: z.array(z.string()).min(1).max(1000),
  creators: z.array(z.string()).min(1).max(100),
  durationMs: z.number().int().min(100).max(60_000),
  concurrency: z.number().int().min(1).max(256),
});

/**
 * For `npm run bench` only (POST /__bench/tips-in-worker): sendTip called directly inside the Worker,
 * `concurrency` at a time for `durationMs`. Without HTTP, the session lookup and input validation, it shows how
 * much of a tip's cost is the domain path itself (creator lookup, the ledger batch, the notification).
 */
export async function tipsInWorker(env: Env, request: Request): Promise<Response> {
  const input = TipsInWorkerSchema.parse(await request.json());
  // Delivery is not what this measures: tips announce to nobody.
  const ctx = { db: env.DB, env, config: config(env), publish: publishNowhere };
  const fans = await usersNamed(env.DB, input.fans);
  const tally = { ok: 0, refused: 0, failed: 0 };
  const seconds = await runFor(input, async () => {
    try {
      await sendTip(
        ctx,
        pickOne(fans),
        { username: pickOne(input.creators) },
        { amountCents: 100, idempotencyKey: crypto.randomUUID() },
      );
      tally.ok++;
    } catch (error) {
      if (error instanceof AppError && error.status === 402) tally.refused++;
      else tally.failed++;
    }
  });
  return Response.json({ ...tally, perSecond: tally.ok / seconds });
}
