/**
 * The creator application's answer (/api/creatorRequest): written by worker/domain/creators, documented by
 * worker/api. Then the application's body.
 */
import { z } from "zod";
import { idNumber } from "./text";

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

/** The uploaded ID document and selfie (purposes id_document, id_selfie). */
export const CreatorRequestBodySchema = z.object({ documentMediaId: idNumber, selfieMediaId: idNumber });
export type CreatorRequestInput = z.output<typeof CreatorRequestBodySchema>;
