import { deleteDueAccounts } from "../domain/account-deletion/delete-due-accounts";
import type { Job } from "./job";

/** Accounts whose owners asked to leave, past their grace days, are deleted (their money settled first). */
export const deleteAccounts: Job = {
  name: "delete-accounts",
  run: (ctx) => deleteDueAccounts(ctx),
};
