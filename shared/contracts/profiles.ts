/**
 * The answers about members besides their profile (shared/contracts/posts.ts): following one, the shell's user
 * search and its suggestions. Checked by the page from app/components/shell/shell-shapes.ts, generated from these
 * schemas; the page imports types only from here.
 */
import { z } from "zod";

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
