/**
 * The answers about members: a profile, following one, the shell's user search and its suggestions. Written by
 * worker/domain/profiles, follows and search, documented by worker/api; the shell's checks
 * (app/components/shell/shell-shapes.ts) are generated from these schemas. Then the body of editing one's profile.
 * The page imports types only from here.
 */
import { z } from "zod";
import { message } from "../messages";
import { displayNameSchema } from "./accounts";
import { orNull } from "./common";
import { PostPageSchema } from "./posts";
import { BundleSchema, PromotionOfferSchema } from "./offers";
import { PlanSchema, SubscriptionSchema } from "./subscriptions";
import { multilineText, singleLineText } from "./text";

/** What the viewer may do on a member's profile; the profile's buttons are exactly these. */
const ProfilePermissionsSchema = z
  .object({
    canEdit: z.boolean(),
    canFollow: z.boolean(),
    canTip: z.boolean(),
    canReport: z.boolean(),
    canBlock: z.boolean(),
  })
  .meta({
    id: "ProfilePermissions",
    description: "What the viewer may do on this profile (worker/domain/policies/members.ts)",
  });
export type ProfilePermissions = z.infer<typeof ProfilePermissionsSchema>;

/** A profile as the viewer may see it, with its first page of posts. */
export const ProfileSchema = PostPageSchema.extend({
  userId: z.number().int(),
  username: z.string(),
  name: z.string(),
  bio: z.string(),
  location: z.string(),
  website: z.string(),
  avatarUrl: z.string(),
  coverUrl: z.string(),
  isCreator: z.boolean(),
  isOwn: z.boolean(),
  available: z
    .boolean()
    .meta({ description: "false when either blocks the other: only the name and avatar are shown" }),
  viewer: ProfilePermissionsSchema,
  postCount: z.number().int(),
  mediaCount: z.number().int(),
  likeCount: z.number().int().meta({ description: "Likes received on published posts" }),
  followerCount: z.number().int().nullable().meta({ description: "The owner only" }),
  following: z.boolean(),
  /** The viewer's live (active or cancelled) subscription. */
  subscription: orNull(SubscriptionSchema),
  plans: z.array(PlanSchema),
  bundles: z.array(BundleSchema).meta({ description: "Bundles of the monthly plan, shortest first" }),
  promotion: orNull(PromotionOfferSchema).meta({ description: "The running promotion this viewer may claim" }),
  messagePriceCents: z
    .number()
    .int()
    .meta({ description: "What a fan pays to send this creator a message, in cents (0: free)" }),
}).meta({ id: "Profile" });
export type Profile = z.infer<typeof ProfileSchema>;

/** Whether the caller follows the user now, and the user's follower count after the call. */
export const FollowStateSchema = z
  .object({ following: z.boolean(), followerCount: z.number().int() })
  .meta({ id: "FollowState" });
export type FollowState = z.infer<typeof FollowStateSchema>;

const UserSearchResultSchema = z.object({ username: z.string(), name: z.string(), avatarUrl: z.string() });
export type UserSearchResult = z.infer<typeof UserSearchResultSchema>;

export const UserSearchResultsSchema = z
  .object({ results: z.object({ users: z.array(UserSearchResultSchema) }) })
  .meta({ id: "UserSearchResults" });
export type UserSearchResults = z.infer<typeof UserSearchResultsSchema>;

const SuggestedProfileSchema = z.object({ username: z.string(), avatarUrl: z.string(), fullname: z.string() });
export type SuggestedProfile = z.infer<typeof SuggestedProfileSchema>;

export const SuggestedProfilesSchema = z
  .object({
    isExist: z.boolean().meta({ description: "false when there is no suggestion" }),
    suggestedProfiles: z.array(SuggestedProfileSchema),
  })
  .meta({ id: "SuggestedProfiles" });
export type SuggestedProfiles = z.infer<typeof SuggestedProfilesSchema>;

const BIO_RULE = message("The bio may not be longer than 1000 characters.");
const LOCATION_RULE = message("The location may not be longer than 60 characters.");
const WEBSITE_RULE = message("The website must be an https:// address.");

/** Only https links: they are shown to everyone, and a javascript: or http: link would be a trap. */
const websiteSchema = singleLineText()
  .trim()
  .max(200, WEBSITE_RULE)
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, WEBSITE_RULE);

/** Edit profile (Settings → Profile). The avatar and cover have their own calls (POST /api/me/avatar|cover). */
export const ProfileBodySchema = z.object({
  name: displayNameSchema,
  bio: multilineText().trim().max(1000, BIO_RULE).default(""),
  location: singleLineText().trim().max(60, LOCATION_RULE).default(""),
  website: websiteSchema.default(""),
});
export type ProfileInput = z.output<typeof ProfileBodySchema>;
