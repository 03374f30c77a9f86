import type { UserRow } from "../accounts/users";
import { blockingRead } from "../moderation/block-user";
import { highlightsRead, type listHighlights } from "../stories/highlights";
import { storyRingRead } from "../stories/stories";
import { getProfileWith, type Profile } from "./get-profile";

export interface ProfilePage {
  profile: Profile;
  /** The viewer has blocked this profile (the Block button's state). */
  viewerBlocks: boolean;
  /** A creator's live stories as this viewer may see them (members only), else null. */
  storyRing: { count: number; unseen: number } | null;
  highlights: Awaited<ReturnType<typeof listHighlights>>;
}

/**
 * The profile page /{username} as `viewer` (null: a visitor) may see it: the profile, and for a member the Block
 * button's state and a creator's story ring and highlights, read in the same batch as the profile (getProfileWith:
 * one round trip when this isolate has looked the username up before, else two). The extra reads are made for the
 * user as read; what a block between the two hides is dropped after.
 */
export async function getProfilePage(
  db: D1Database,
  username: string,
  viewer: UserRow | null,
): Promise<ProfilePage | null> {
  const found = await getProfileWith(db, username, viewer?.id ?? null, (user) =>
    viewer && user.isCreator
      ? [blockingRead(db, viewer.id, username), storyRingRead(db, viewer, user.id), highlightsRead(db, viewer, user.id)]
      : viewer && user.id !== viewer.id
        ? [blockingRead(db, viewer.id, username)]
        : [],
  );
  if (!found) return null;
  const { profile } = found;
  const [blocks = false, ring = null, highlights = []] = found.alongside as [
    boolean?,
    ProfilePage["storyRing"]?,
    ProfilePage["highlights"]?,
  ];
  // Stories are for members: the ring and the highlights of a creator's profile, as this viewer may see them.
  const stories = viewer !== null && profile.isCreator && profile.available;
  const blockable = viewer !== null && profile.viewer.canBlock;
  return {
    profile,
    viewerBlocks: blockable && blocks,
    storyRing: stories ? ring : null,
    highlights: stories ? [...highlights] : [],
  };
}
