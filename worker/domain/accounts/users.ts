import type { AccountType } from "@shared/contracts/account-constants";

export type Role = "member" | "creator" | "admin";

export interface UserRow {
  id: number;
  username: string;
  name: string;
  email: string;
  email_verified_at: string | null;
  password_hash: string;
  date_of_birth: string;
  account_type: AccountType;
  role: Role;
  bio: string;
  avatar_key: string | null;
  cover_key: string | null;
  follower_count: number;
  /** How many creators the user follows (kept by triggers, migration 0017). */
  following_count: number;
  subscriber_count: number;
  location: string;
  website: string;
  /** 1 once an admin approved the user's creator request. */
  monetization_enabled: number;
  /** Set by an admin from the reports queue: the user cannot sign in and their content is hidden. */
  suspended_at: string | null;
  /** When the account is deleted, while its owner is leaving (it is hidden, as suspended, until then). */
  deletion_due_at: string | null;
  /** Set once the account was deleted: the row is a nameless tombstone the ledger still points at. */
  deleted_at: string | null;
  /** What a fan pays to send this creator a message (0: free). */
  message_price_cents: number;
  /** When the user last opened /home (the Home dot of /api/updates). */
  home_seen_at: string | null;
  /** 1: the creator's photos uploaded from now on are marked for fans (migration 0028). */
  watermark: number;
  created_at: string;
  updated_at: string;
}

export const findUserById = (db: D1Database, id: number) =>
  db.prepare("SELECT * FROM users WHERE id = ?").bind(id).first<UserRow>();

export const findUserByEmail = (db: D1Database, email: string) =>
  db.prepare("SELECT * FROM users WHERE email = ?").bind(email).first<UserRow>();

/** A sign-in name is an email when it holds an @, else a username; both compare without case. */
export const findUserByLogin = (db: D1Database, login: string) =>
  login.includes("@")
    ? findUserByEmail(db, login.toLowerCase())
    : db.prepare("SELECT * FROM users WHERE username = ?").bind(login).first<UserRow>();

/** Avatars and covers are public objects (R2 keys under public/); /media serves them to anyone. */
export const publicMediaUrl = (key: string | null) => (key ? `/media/${key}` : "");

/** GET /api/me, exactly the fields of spec §7. */
export interface Me {
  userId: number;
  avatarUrl: string;
  username: string;
  isCreator: boolean;
  isEmailVerified: boolean;
}

export function presentMe(user: UserRow): Me {
  return {
    userId: user.id,
    avatarUrl: publicMediaUrl(user.avatar_key),
    username: user.username,
    isCreator: user.role === "creator",
    isEmailVerified: user.email_verified_at !== null,
  };
}
