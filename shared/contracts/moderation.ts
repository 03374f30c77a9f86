/** The moderation API's shapes (reports, creator requests) as the admin screens receive them. Plain types only. */

/** Spec §8's report reasons, as stored in reports.reason (migration 0003); "other" needs a description. */
export const REPORT_REASONS = [
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

export const REPORT_TARGET_KINDS = ["post", "user"] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

export const REPORT_DESCRIPTION_MAX = 1000;

/** An open report with what the admin needs to judge it: the post's text and author, or the user. */
export interface OpenReport {
  id: number;
  reason: ReportReason;
  description: string;
  createdAt: string;
  reporter: { username: string };
  target: {
    kind: ReportTargetKind;
    id: number;
    text: string | null;
    user: { id: number; username: string; name: string; suspended: boolean } | null;
  };
}

/** A pending request as the admin queue shows it; the ID images are private objects only admins may fetch. */
export interface PendingCreatorRequest {
  id: number;
  createdAt: string;
  /** The name and birth date the applicant signed up with (YYYY-MM-DD), to compare with the ID document. */
  user: {
    id: number;
    username: string;
    name: string;
    email: string;
    dateOfBirth: string;
    avatarUrl: string;
    coverUrl: string;
  };
  documentUrl: string;
  selfieUrl: string;
}
