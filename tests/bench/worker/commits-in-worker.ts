import { z } from "zod";
import { walletPaymentBatch, walletPaymentHash, type WalletPayment } from "../../../worker/domain/money/payments";
import { config, type Env } from "../../../worker/env";
import { pickOne, runFor, usersNamed } from "./concurrent";

const CommitsInWorkerSchema = z.object({
  /** "tip": a tip's ledger batch (payFromWallet's, no notification); "row": a one-row INSERT; "read": `SELECT 1`. */
  kind: z.enum(["tip", "row", "read"]),
  fans: z.array(z.string()).max(1000).default([]),
  creators: z.array(z.string()).max(100).default([]),
  /** How many tips (or rows, or reads) go in one batch. */
  perBatch: z.number().int().min(1).max(64),
  durationMs: z.number().int().min(100).max(60_000),
  concurrency: z.number().int().min(1).max(256),
});

/**
 * For `npm run bench` only (POST /__bench/commits-in-worker): D1 batches sent straight from the Worker,
 * `concurrency` at a time for `durationMs`, with nothing around them (no HTTP, session, validation, reads, group
 * commit or notification). It shows what the database's own part of a tip costs here, one tip a batch and many,
 * and what a write commit costs against a read round trip.
 */
export async function commitsInWorker(env: Env, request: Request): Promise<Response> {
  const input = CommitsInWorkerSchema.parse(await request.json());
  const db = env.DB;
  const feePercent = config(env).PLATFORM_FEE_PERCENT;
  let batchOf: () => Promise<D1PreparedStatement[]>;
  if (input.kind === "read") {
    batchOf = async () => Array.from({ length: input.perBatch }, () => db.prepare("SELECT 1 AS one"));
  } else if (input.kind === "row") {
    await db.prepare("CREATE TABLE IF NOT EXISTS bench_commits (id INTEGER PRIMARY KEY, at TEXT NOT NULL)").run();
    batchOf = async () =>
      Array.from({ length: input.perBatch }, () =>
        db.prepare("INSERT INTO bench_commits (at) VALUES (?)").bind(new Date().toISOString()),
      );
  } else {
    if (input.fans.length === 0 || input.creators.length === 0)
      throw new Error("commits-in-worker: tips need fans and creators");
    const [fans, creators] = [await usersNamed(db, input.fans), await usersNamed(db, input.creators)];
    const tip = async () => {
      const spend: WalletPayment = {
        payer: { id: pickOne(fans).id, email_verified_at: null },
        creatorId: pickOne(creators).id,
        kind: "tip",
        amountCents: 100,
        idempotencyKey: `c:${crypto.randomUUID()}`,
        request: { postId: null, note: null },
        feePercent,
        system: true,
      };
      return walletPaymentBatch(db, spend, await walletPaymentHash(spend)).statements;
    };
    batchOf = async () => (await Promise.all(Array.from({ length: input.perBatch }, tip))).flat();
  }
  let batches = 0;
  const seconds = await runFor(input, async () => {
    await db.batch(await batchOf());
    batches++;
  });
  return Response.json({ perSecond: (batches * input.perBatch) / seconds, batchesPerSecond: batches / seconds });
}
