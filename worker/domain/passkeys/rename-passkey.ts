import type { Passkey } from "@shared/contracts/passkeys";
import { message } from "@shared/messages";
import { AppError } from "../shared/errors";
import { presentPasskey, type PasskeyRow } from "./list-passkeys";

const NOT_FOUND = message("Passkey not found.");

/** Renames one of the account's own passkeys; another's is not found. */
export async function renamePasskey(db: D1Database, userId: number, passkeyId: number, name: string): Promise<Passkey> {
  const row = await db
    .prepare("UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ? RETURNING *")
    .bind(name, passkeyId, userId)
    .first<PasskeyRow>();
  if (!row) throw new AppError("not_found", NOT_FOUND);
  return presentPasskey(row);
}
