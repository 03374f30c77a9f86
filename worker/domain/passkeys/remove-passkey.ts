import { message } from "@shared/messages";
import { AppError } from "../shared/errors";

const NOT_FOUND = message("Passkey not found.");

/**
 * Removes one of the account's own passkeys; another's is not found. It asks for no password: removing a key
 * takes a way in away rather than adding one (the page confirms first), and the password still signs in.
 */
export async function removePasskey(db: D1Database, userId: number, passkeyId: number): Promise<void> {
  const { meta } = await db.prepare("DELETE FROM passkeys WHERE id = ? AND user_id = ?").bind(passkeyId, userId).run();
  if (meta.changes !== 1) throw new AppError("not_found", NOT_FOUND);
}
