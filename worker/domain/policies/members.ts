import type { ProfilePermissions } from "@shared/contracts/posts";
export { type ProfilePermissions };
/**
 * The members policy's SQL half: a member exists for the viewer (?1; NULL for a visitor) unless suspended or one
 * of the two blocks the other. `member` is the alias of a `users` row; each block check is one probe of the
 * blocks primary key or of blocks_blocked. Posts, profiles and suggestions all decide "who exists" with this.
 */
export const visibleMemberSql = (member: string) => `${member}.suspended_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = ${member}.id)
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${member}.id AND b.blocked_id = ?1)`;

/**
 * The pure rule behind ProfilePermissions, from the facts getProfile reads: the owner edits; someone else signed in
 * may report and block (also across a block, to lift it), and follow and tip (a creator) unless a block stands.
 */
export function profilePermissionsOf(member: { id: number; isCreator: boolean }, viewerId: number | null, blocked: boolean): ProfilePermissions {
  const other = viewerId !== null && viewerId !== member.id;
  return {
    canEdit: viewerId === member.id,
    canFollow: other && !blocked,
    canTip: other && !blocked && member.isCreator,
    canReport: other,
    canBlock: other,
  };
}
