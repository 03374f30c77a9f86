// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { FanMemberships, ListedFanPage } from "@shared/contracts/fan-lists";
import { array, boolean, nullable, number, object, string, type Shape } from "@shared/shape";

export const listedFanPageShape: Shape<ListedFanPage> = object({
  fans: array(
    object({
      userId: number,
      username: string,
      name: string,
      avatarUrl: string,
      spentCents: number,
      lastActiveAt: nullable(string),
    }),
  ),
  nextCursor: nullable(string),
});

export const fanMembershipsShape: Shape<FanMemberships> = object({
  lists: array(object({ id: number, name: string, member: boolean })),
});
