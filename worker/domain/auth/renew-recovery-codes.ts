import { message } from "@shared/messages";
import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";
import { AppError } from "../shared/errors";
import { confirmSecondStep } from "./second-step";
import { findTwoStep, replaceRecoveryCodes } from "./two-step-codes";

const NOT_ON = message("Two-step sign-in is off.");

/** Ten new recovery codes in place of the old ones (used or not), for a code; shown once. */
export async function renewRecoveryCodes(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id">,
  code: string,
): Promise<string[]> {
  if (!(await findTwoStep(ctx.db, user.id))?.enabled_at) throw new AppError("conflict", NOT_ON);
  await confirmSecondStep(ctx, user, code);
  const { codes, statements } = await replaceRecoveryCodes(ctx.db, user.id);
  await ctx.db.batch(statements);
  return codes;
}
