import type { ChangePlanInput } from "@shared/contracts/offer-bodies";
import type { SubscriptionView } from "./present-subscription";

/** The fan's next plan: from the next renewal, with no charge now. Choosing the current plan again undoes a change. */
export async function changePlan(db: D1Database, fanId: number, subscriptionId: number, input: ChangePlanInput): Promise<SubscriptionView> {
  void db, fanId, subscriptionId, input;
  throw new Error("todo");
}
