import type { Config, Env } from "../../env";
import { isoNow } from "../shared/time";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The one way the app sends mail. `MAIL_DRIVER` picks the implementation (README, "Configuration"). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Development: every message is stored for /dev/mailbox and printed to the log; nothing leaves the machine. */
export function devMailbox(db: D1Database, printToLog: boolean): Mailer {
  return {
    async send(message) {
      await db
        .prepare("INSERT INTO dev_mailbox (to_address, subject, text_body, html_body, created_at) VALUES (?, ?, ?, ?, ?)")
        .bind(message.to, message.subject, message.text, message.html, isoNow())
        .run();
      if (printToLog) console.log(`[mail] to=${message.to} subject=${JSON.stringify(message.subject)}\n${message.text}`);
    },
  };
}

/** Production: the Resend HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
export function resendMailer(apiKey: string, from: string): Mailer {
  return {
    async send(message) {
      const response = await fetch("https://api.resend.com/emails", {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from, to: [message.to], subject: message.subject, text: message.text, html: message.html }),
      });
      if (!response.ok) {
        throw new Error(`Resend refused the message: ${response.status} ${await response.text()}`);
      }
    },
  };
}

export function createMailer(env: Env, settings: Config): Mailer {
  return settings.MAIL_DRIVER === "dev" ? devMailbox(env.DB, settings.APP_ENV === "development") : resendMailer(settings.RESEND_API_KEY ?? "", settings.MAIL_FROM);
}
