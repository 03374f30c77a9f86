import { message } from "@shared/messages";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";

const ONLY_CREATORS_HAVE_A_VAULT = message("Only creators have a vault.");

/** The vault and its albums are a creator's alone: everyone else is refused before anything is read. */
export function requireVaultOwner(viewer: Viewer): void {
  if (viewer.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_HAVE_A_VAULT);
}

export const ALBUM_NOT_FOUND = message("This album does not exist.");
export const FILE_NOT_IN_VAULT = message("This file is not in your vault.");

/** The SQL test, on a `media` row `m`, that it is a file of the creator ?1's vault: a finished content file. */
export const IN_VAULT_OF_CREATOR_SQL = "m.user_id = ?1 AND m.purpose = 'post' AND m.status = 'ready'";
