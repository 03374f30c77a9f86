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
