import { AsyncLocalStorage } from "node:async_hooks";
import { placesOf } from "@shared/contracts/geo-block-places";
import type { DomainContext } from "../context";

/**
 * Where the viewer of the request being answered is (docs/decisions/geo-blocking.md): the place codes it falls
 * under ("US", "US-TX"), for members.ts's geo rule. Request state, like the session, but read by SQL fragments
 * that a hundred statements build with nothing but the viewer's id in hand, so it travels with the request's async
 * work rather than through every signature. Set once, where the DomainContext is made (worker/http/middleware.ts).
 */
const requestPlaces = new AsyncLocalStorage<readonly string[]>();

/** Runs `work` (the rest of a request: the API, /media, /ws, the pages' loaders and actions) in the viewer's place. */
export const inViewerPlace = <T>(location: Pick<DomainContext, "country" | "region">, work: () => T): T =>
  requestPlaces.run(placesOf(location.country, location.region), work);

/**
 * The place codes of the request being answered: known codes only (geo-block-places.ts), so SQL may hold them as
 * literals. None outside a request (the cron, queues, a Durable Object's alarm): nobody is looking from anywhere.
 */
export const viewerPlaces = (): readonly string[] => requestPlaces.getStore() ?? [];
