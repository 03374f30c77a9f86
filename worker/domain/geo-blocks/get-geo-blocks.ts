import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { placesOf } from "@shared/contracts/geo-block-places";
import type { GeoBlocks } from "@shared/contracts/geo-blocks";

const CREATORS_ONLY = message("Only creators can hide their content from places.");

/** Geo-blocking is a creator's: their content is what it hides. */
export function requireCreatorRole(user: Pick<UserRow, "role">): void {
  if (user.role !== "creator") throw new AppError("forbidden", CREATORS_ONLY);
}

/** The places where the creator's content does not exist, and the places the request comes from. */
export async function getGeoBlocks(
  ctx: Pick<DomainContext, "db" | "country" | "region">,
  creator: Pick<UserRow, "id" | "role">,
): Promise<GeoBlocks> {
  requireCreatorRole(creator);
  const { results } = await ctx.db
    .prepare("SELECT place FROM geo_blocks WHERE creator_id = ? ORDER BY place")
    .bind(creator.id)
    .all<{ place: string }>();
  return { places: results.map((row) => row.place), here: placesOf(ctx.country, ctx.region) };
}
