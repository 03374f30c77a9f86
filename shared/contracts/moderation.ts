/**
 * The moderation API's answers (blocks, and the admin's queues of reports and creator requests): written by
 * worker/domain/moderation and worker/domain/creators, documented by worker/api. The admin screens read them from
 * their loaders; the page imports types only from here. Then the bodies of a report and of the admin's decisions.
 */

import { z } from "zod";
import { message } from "../messages";
import { idNumber, multilineText, singleLineText } from "./text";

/** Spec §8's report reasons, as stored in reports.reason (migration 0003); "other" needs a description. */
const REPORT_REASONS = [
  "didnt_like",
  "revenge_porn",
  "exposed_personal_information",
  "impersonation",
  "underage_material",
  "trademark_infringement",
  "spam",
  "prostitution",
  "weapons",
  "drugs",
  "other",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

const REPORT_TARGET_KINDS = ["post", "user"] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

const REPORT_DESCRIPTION_MAX = 1000;

/** An open report with what the admin needs to judge it: the post's text and author, or the user. */
const OpenReportSchema = z
  .object({
    id: z.number().int(),
    reason: z.enum(REPORT_REASONS),
    description: z.string(),
    createdAt: z.string(),
    reporter: z.object({ username: z.string() }),
    target: z.object({
      kind: z.enum(REPORT_TARGET_KINDS),
      id: z.number().int(),
      text: z.string().nullable(),
      user: z
        .object({ id: z.number().int(), username: z.string(), name: z.string(), suspended: z.boolean() })
        .nullable(),
    }),
  })
  .meta({ id: "OpenReport" });
export type OpenReport = z.infer<typeof OpenReportSchema>;

/** GET /admin/reports: the open reports, oldest first. */
export const OpenReportsSchema = z.object({ reports: z.array(OpenReportSchema) }).meta({ id: "OpenReports" });

/** A pending request as the admin queue shows it; the ID images are private objects only admins may fetch. */
const PendingCreatorRequestSchema = z
  .object({
    id: z.number().int(),
    createdAt: z.string(),
    user: z
      .object({
        id: z.number().int(),
        username: z.string(),
        name: z.string(),
        email: z.string(),
        dateOfBirth: z.string().meta({ example: "1990-04-12" }),
        avatarUrl: z.string(),
        coverUrl: z.string(),
      })
      .meta({
        description: "The name and birth date the applicant signed up with (YYYY-MM-DD), to compare with the ID",
      }),
    documentUrl: z.string().meta({ description: "Private /media URL, readable by admins only" }),
    selfieUrl: z.string(),
  })
  .meta({ id: "PendingCreatorRequest" });
export type PendingCreatorRequest = z.infer<typeof PendingCreatorRequestSchema>;

/** GET /admin/creatorRequests: the pending requests, oldest first. */
export const PendingCreatorRequestsSchema = z
  .object({ requests: z.array(PendingCreatorRequestSchema) })
  .meta({ id: "PendingCreatorRequests" });

const BlockedUserSchema = z.object({
  username: z.string(),
  name: z.string(),
  avatarUrl: z.string(),
  blockedAt: z.string(),
});
export type BlockedUser = z.infer<typeof BlockedUserSchema>;

/** GET /blocks: the users the caller blocks, newest first. */
export const BlockedUsersSchema = z.object({ users: z.array(BlockedUserSchema) }).meta({ id: "BlockedUsers" });

export const DESCRIPTION_REQUIRED = message("Please describe the problem.");
const description = multilineText().max(REPORT_DESCRIPTION_MAX, message("The description is too long.")).default("");
const reason = z.enum(REPORT_REASONS, { message: message("Please choose a reason.") });

/** Either a post by id or a user by username (or id); "other" must say what is wrong. */
export const ReportBodySchema = z
  .discriminatedUnion("targetKind", [
    z.object({ targetKind: z.literal("post"), targetId: idNumber, reason, description }),
    z.object({ targetKind: z.literal("user"), username: singleLineText().min(1).max(30), reason, description }),
  ])
  .superRefine((body, ctx) => {
    if (body.reason === "other" && body.description.trim() === "")
      ctx.addIssue({ code: "custom", path: ["description"], message: DESCRIPTION_REQUIRED });
  });

/** What the member is told when rejected: required, at most 500 characters (creator_requests.rejection_reason). */
export const rejectionReasonSchema = multilineText()
  .trim()
  .min(1, message("Please give a reason for the rejection."))
  .max(500, message("The reason is too long."));

export const CreatorRejectionBodySchema = z.object({ reason: rejectionReasonSchema });
