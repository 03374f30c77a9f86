/** The creator application's answer (/api/creatorRequest): written by worker/domain/creators, documented by worker/api. */
import { z } from "zod";

/** Where the user's latest application stands, for /becomeCreator. */
const CreatorApplicationSchema = z.object({
  status: z.enum(["pending", "approved", "rejected"]),
  rejectionReason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type CreatorApplication = z.infer<typeof CreatorApplicationSchema>;

export const CreatorApplicationAnswerSchema = z
  .object({ application: CreatorApplicationSchema.nullable().meta({ description: "null when they never applied" }) })
  .meta({ id: "CreatorApplication" });
