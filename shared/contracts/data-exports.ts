/**
 * A person's data export (/api/account/data-exports): written by worker/domain/data-exports, shown by Settings →
 * Privacy and data and the page its mail links to (/account/export/{id}).
 */

import { z } from "zod";

const DATA_EXPORT_STATUSES = ["preparing", "ready", "failed", "expired"] as const;

const DataExportSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(DATA_EXPORT_STATUSES).meta({
      description:
        "preparing: the ZIP is being built; ready: downloadable until expiresAt; failed or expired: ask again",
    }),
    createdAt: z.string(),
    expiresAt: z.string().nullable().meta({ description: "When the download ends (ready only)" }),
    sizeBytes: z.number().int().nullable().meta({ description: "The ZIP's size (ready only)" }),
    downloadPath: z
      .string()
      .nullable()
      .meta({ description: "Where its owner downloads the ZIP, signed in (ready only)" }),
  })
  .meta({ id: "DataExport" });
export type DataExportView = z.infer<typeof DataExportSchema>;

export const DataExportStateSchema = z
  .object({
    dataExport: DataExportSchema.nullable().meta({ description: "The latest export asked for; null: none yet" }),
    nextRequestAt: z
      .string()
      .nullable()
      .meta({ description: "When a new export may be asked for; null: now (unless one is preparing)" }),
  })
  .meta({ id: "DataExportState" });
export type DataExportState = z.infer<typeof DataExportStateSchema>;
