import { deleteExpiredDataExports as deleteDue } from "../domain/data-exports/delete-expired-data-exports";
import type { Job } from "./job";

/** Data export ZIPs past their 7 days are deleted; exports stuck in preparation are given up. */
export const deleteExpiredDataExports: Job = {
  name: "delete-expired-data-exports",
  run: (ctx) => deleteDue(ctx.env),
};
