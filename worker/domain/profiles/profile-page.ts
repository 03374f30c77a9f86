import type { UserRow } from "../accounts/users";
import { isBlocking } from "../moderation/block-user";
import { listHighlights } from "../stories/highlights";
import { storyRingOf } from "../stories/stories";
import { getProfileWith, type Profile } from "./get-profile";

export interface ProfilePage {
  profile: Profile;
  /** The viewer has blocked this profile (the Block button's state). */
  viewerBlocks: boolean;
  /** A creator's live stories as this viewer may see them (members only), else null. */
  storyRing: { count: number; unseen: number } | null;
  highlights: Awaited<ReturnType<typeof listHighlights>>;
}

/** The page's reads beyond the profile, as they apply: the viewer's block mark, a creator's stories. */
const extrasOf = (db: D1Database, viewer: UserRow, username: string, creatorId: number, blockable: boolean, stories: boolean) =>
  Promise.all([
    blockable ? isBlocking(db, viewer.id, username) : false,
    stories ? storyRingOf(db, viewer, creatorId) : null,
    stories ? listHighlights(db, viewer, creatorId) : [],
  ]);

/**
 * The profile page /{username} as `viewer` (null: a visitor) may see it: the profile, and for a member the Block
 * button's state and a creator's story ring and highlights, read in the same round trips as the profile
 * (getProfileWith: one when this isolate has looked the username up before, else two). The extra reads are made
 * for the user as read; what a block between the two hides is dropped after.
 */
export async function getProfilePage(db: D1Database, username: string, viewer: UserRow | null): Promise<ProfilePage | null> {
  const found = await getProfileWith(db, username, viewer?.id ?? null, async (user) =>
    viewer ? extrasOf(db, viewer, username, user.id, user.id !== viewer.id, user.isCreator) : ([false, null, []] as const),
  );
  if (!found) return null;
  const { profile } = found;
  const [blocks, ring, highlights] = found.alongside;
  // Stories are for members: the ring and the highlights of a creator's profile, as this viewer may see them.
  const stories = viewer !== null && profile.isCreator && profile.available;
  const blockable = viewer !== null && profile.viewer.canBlock;
  return { profile, viewerBlocks: blockable && blocks, storyRing: stories ? ring : null, highlights: stories ? [...highlights] : [] };
}
