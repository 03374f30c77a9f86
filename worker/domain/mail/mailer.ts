export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The one way the app sends mail: Resend in production, a local run's mailbox elsewhere (worker/dev/mailbox.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Production: the Resend HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
export function resendMailer(apiKey: string, from: string): Mailer {
  return {
    async send(message) {
      const response = await fetch("https://api.resend.com/emails", {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          from,
          to: [message.to],
          subject: message.subject,
          text: message.text,
          html: message.html,
        }),
      });
      if (!response.ok) {
        throw new Error(`Resend refused the message: ${response.status} ${await response.text()}`);
      }
    },
  };
}
