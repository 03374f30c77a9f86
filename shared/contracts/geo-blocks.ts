/**
 * Geo-blocking's answer and body (/api/me/geo-blocks): written by worker/domain/geo-blocks, documented by
 * worker/api. The page imports types only from here: the place codes are in geo-block-places.ts.
 */
import { z } from "zod";
import { message } from "../messages";
import { GEO_BLOCK_PLACES, GEO_BLOCKS_MAX } from "./geo-block-places";

const UNKNOWN_PLACE = message("Choose countries and US states from the list.");

const placeCode = z
  .string()
  .max(8)
  .refine((place) => GEO_BLOCK_PLACES.has(place), { message: UNKNOWN_PLACE })
  .meta({ description: 'An ISO 3166-1 alpha-2 country ("DE") or a US state ("US-TX")' });

export const GeoBlocksSchema = z
  .object({
    places: z.array(z.string()).meta({ description: "Where the creator's content does not exist, sorted" }),
    here: z.array(z.string()).meta({
      description:
        'The places this request comes from ("US", "US-TX"): chosen, the creator\'s visitors here see nothing',
    }),
  })
  .meta({ id: "GeoBlocks" });
export type GeoBlocks = z.infer<typeof GeoBlocksSchema>;

/** The whole set at once: what is not listed is no longer blocked. */
export const GeoBlocksBodySchema = z.object({ places: z.array(placeCode).max(GEO_BLOCKS_MAX) });
export type GeoBlocksInput = z.output<typeof GeoBlocksBodySchema>;
