import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import type { GeoBlocks, GeoBlocksInput } from "@shared/contracts/geo-blocks";
import { getGeoBlocks, requireCreatorRole } from "./get-geo-blocks";

/**
 * Replaces the places where the creator's content does not exist (GeoBlocksBodySchema checked the codes). One
 * batch: the old set goes and the new one comes together, so no reader sees half of it.
 */
export async function setGeoBlocks(
  ctx: Pick<DomainContext, "db" | "country" | "region">,
  creator: Pick<UserRow, "id" | "role">,
  input: GeoBlocksInput,
): Promise<GeoBlocks> {
  requireCreatorRole(creator);
  await ctx.db.batch([
    ctx.db.prepare("DELETE FROM geo_blocks WHERE creator_id = ?").bind(creator.id),
    ctx.db
      .prepare("INSERT OR IGNORE INTO geo_blocks (creator_id, place) SELECT ?1, value FROM json_each(?2)")
      .bind(creator.id, JSON.stringify(input.places)),
  ]);
  return getGeoBlocks(ctx, creator);
}
