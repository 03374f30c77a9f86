import type { Passkey } from "@shared/contracts/passkeys";
import { readOne, type Read } from "../shared/reads";

export interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  device_type: "singleDevice" | "multiDevice";
  backed_up: number;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export const presentPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  backedUp: row.backed_up === 1,
});

/** An account's passkeys, oldest first, as a read a page can batch with its others. */
export const passkeysRead = (db: D1Database, userId: number): Read<Passkey[]> => ({
  statement: db.prepare("SELECT * FROM passkeys WHERE user_id = ? ORDER BY id").bind(userId),
  answer: (result) => (result.results as PasskeyRow[]).map(presentPasskey),
});

export const listPasskeys = (db: D1Database, userId: number) => readOne(passkeysRead(db, userId));
