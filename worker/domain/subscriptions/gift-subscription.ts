import type { GiftInput } from "@shared/contracts/offer-bodies";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";

/** A gift of the creator's monthly plan to another member, paid from the giver's wallet. */
export async function giftSubscription(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  giver: UserRow,
  username: string,
  input: GiftInput,
): Promise<{ recipient: string; months: number; endsAt: string }> {
  void ctx, giver, username, input;
  throw new Error("todo");
}
