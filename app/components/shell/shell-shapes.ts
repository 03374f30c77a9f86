// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { FollowState, SuggestedProfiles, UserSearchResults } from "@shared/contracts/profiles";
import { array, boolean, number, object, string, type Shape } from "@shared/shape";

export const suggestedProfilesShape: Shape<SuggestedProfiles> = object({
  isExist: boolean,
  suggestedProfiles: array(object({ username: string, avatarUrl: string, fullname: string })),
});

export const followStateShape: Shape<FollowState> = object({ following: boolean, followerCount: number });

export const userSearchShape: Shape<UserSearchResults> = object({
  results: object({ users: array(object({ username: string, name: string, avatarUrl: string })) }),
});
