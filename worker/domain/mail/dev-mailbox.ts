import type { Config } from "../../env";

export interface DevMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

/** The mailbox page exists only where mail is kept locally, and never in production. */
export const isDevMailboxEnabled = (settings: Config) => settings.MAIL_DRIVER === "dev" && settings.APP_ENV !== "production";

export async function listDevMail(db: D1Database, to: string | null): Promise<DevMail[]> {
  const query = to
    ? db.prepare("SELECT id, to_address, subject, text_body, created_at FROM dev_mailbox WHERE to_address = ? ORDER BY id DESC LIMIT 50").bind(to.toLowerCase())
    : db.prepare("SELECT id, to_address, subject, text_body, created_at FROM dev_mailbox ORDER BY id DESC LIMIT 50");
  return (await query.all<DevMail>()).results;
}
