import { z } from "zod";

/**
 * One export to build (a data_exports row), with what the mail needs from the request that asked: where its link
 * points and the language it is written in. Nothing private travels in the queue message.
 */
export const DataExportJobSchema = z.object({
  exportId: z.number().int().positive(),
  origin: z.url(),
  language: z.string().min(2).max(16),
});
export type DataExportJob = z.infer<typeof DataExportJobSchema>;

/** Hands a job to the DATA_EXPORTS Queue (worker/queues/data-exports.ts); the domain imports no transport. */
export type EnqueueDataExport = (job: DataExportJob) => Promise<void>;
