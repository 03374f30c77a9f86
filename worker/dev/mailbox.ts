import type { Context } from "hono";
import { html } from "hono/html";
import { RTL_LANGUAGES } from "@shared/i18n/languages";
import type { Mailer } from "../domain/mail/mailer";
import { isoNow } from "../domain/shared/time";
import type { Config, Env } from "../env";
import type { AppEnv } from "../http/types";

/** A local run's mail: every message is stored for /dev/mailbox (and printed to the log under APP_ENV=development); nothing leaves the machine. */
export function devMailbox(env: Env, settings: Config): Mailer {
  return {
    async send(message) {
      await env.DB.prepare(
        "INSERT INTO dev_mailbox (to_address, subject, text_body, html_body, created_at) VALUES (?, ?, ?, ?, ?)",
      )
        .bind(message.to, message.subject, message.text, message.html, isoNow())
        .run();
      if (settings.APP_ENV === "development")
        console.log(`[mail] to=${message.to} subject=${JSON.stringify(message.subject)}\n${message.text}`);
    },
  };
}

interface DevMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

/** The URLs in a plain-text email as links, everything else as text. */
const linkified = (text: string) =>
  text
    .split(/(https?:\/\/\S+)/g)
    .map((part) => (/^https?:\/\//.test(part) ? html`<a href="${part}">${part}</a>` : part));

/** GET /dev/mailbox[?to=address]: the newest 50 messages the app "sent", to everyone or to one address. */
export async function showMailbox(c: Context<AppEnv>) {
  const { db, t } = c.get("domain");
  const to = c.req.query("to") || null;
  const query = to
    ? db
        .prepare(
          "SELECT id, to_address, subject, text_body, created_at FROM dev_mailbox WHERE to_address = ? ORDER BY id DESC LIMIT 50",
        )
        .bind(to.toLowerCase())
    : db.prepare("SELECT id, to_address, subject, text_body, created_at FROM dev_mailbox ORDER BY id DESC LIMIT 50");
  const { results: mails } = await query.all<DevMail>();
  const language = c.get("language");
  return c.html(
    html`<!doctype html>
      <html lang="${language}" dir="${RTL_LANGUAGES.has(language) ? "rtl" : "ltr"}">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${t("Development mailbox")}</title>
          <style>
            body {
              font-family: system-ui, sans-serif;
              max-width: 48rem;
              margin: 0 auto;
              padding: 1.5rem;
            }
            li {
              margin: 1rem 0;
              padding: 1rem;
              border: 1px solid #cbd5e1;
              border-radius: 0.75rem;
            }
            pre {
              white-space: pre-wrap;
              overflow-wrap: anywhere;
              font: inherit;
            }
          </style>
        </head>
        <body>
          <h1>${t("Development mailbox")}</h1>
          <form method="get">
            <label>${t("Recipient")} <input name="to" value="${to ?? ""}" /></label>
            <button type="submit">${t("Filter")}</button>
            ${to ? html`<a href="/dev/mailbox">${t("All")}</a>` : ""}
          </form>
          ${mails.length === 0 ? html`<p>${t("No messages yet.")}</p>` : ""}
          <ol>
            ${mails.map(
              (mail) =>
                html`<li data-testid="mail">
                  <small>${mail.to_address} · ${mail.created_at}</small>
                  <h2>${mail.subject}</h2>
                  <pre>${linkified(mail.text_body)}</pre>
                </li>`,
            )}
          </ol>
        </body>
      </html>`,
  );
}
