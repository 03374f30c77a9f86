import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import { AppError } from "../shared/errors";

const ONLY_CREATORS_MASS_MESSAGE = message("Only creators can send a message to all their fans.");

/** Mass messages are a creator's: anyone else is refused before anything is read. */
export function requireCreator(user: Pick<UserRow, "role">): void {
  if (user.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_MASS_MESSAGE);
}
