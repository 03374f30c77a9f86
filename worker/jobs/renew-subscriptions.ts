import { renewSubscriptions as renewDueSubscriptions } from "../domain/subscriptions/renew-subscriptions";
import type { Job } from "./job";

/** Subscriptions at their renewal date renew (paid ones charged from the wallet) or end. */
export const renewSubscriptions: Job = {
  name: "renew-subscriptions",
  run: (ctx) => renewDueSubscriptions(ctx),
};
