import type { Translate } from "../i18n";
import type { MailMessage } from "./mailer";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

interface LinkMail {
  to: string;
  subject: string;
  greeting: string;
  body: string;
  action: string;
  link: string;
  footer: string;
}

/** Every account email is one short paragraph and one button; the plain-text part carries the same link. */
function linkMail(mail: LinkMail): MailMessage {
  const text = `${mail.greeting}\n\n${mail.body}\n\n${mail.action}: ${mail.link}\n\n${mail.footer}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>${escapeHtml(mail.greeting)}</p><p>${escapeHtml(mail.body)}</p>
<p><a href="${escapeHtml(mail.link)}" style="display:inline-block;padding:10px 18px;background:#0a6fd6;color:#fff;border-radius:999px;text-decoration:none">${escapeHtml(mail.action)}</a></p>
<p style="color:#666;font-size:13px">${escapeHtml(mail.footer)}</p></body></html>`;
  return { to: mail.to, subject: mail.subject, text, html };
}

export const verifyEmailMail = (t: Translate, to: string, name: string, link: string) =>
  linkMail({
    to,
    link,
    subject: t("Verify your email address"),
    greeting: t("Hi {{name}},", { name }),
    body: t("Please confirm that this is your email address."),
    action: t("Verify email address"),
    footer: t("If you did not create an account, you can ignore this message."),
  });

export const changeEmailMail = (t: Translate, to: string, name: string, link: string) =>
  linkMail({
    to,
    link,
    subject: t("Confirm your new email address"),
    greeting: t("Hi {{name}},", { name }),
    body: t("Confirm that you want to use this address for your account."),
    action: t("Confirm new email"),
    footer: t("If you did not ask for this change, you can ignore this message."),
  });

export const magicLinkMail = (t: Translate, to: string, name: string, link: string) =>
  linkMail({
    to,
    link,
    subject: t("Your sign-in link"),
    greeting: t("Hi {{name}},", { name }),
    body: t("Use this link to sign in. It works once and expires in 15 minutes."),
    action: t("Sign in"),
    footer: t("If you did not ask for this link, you can ignore this message."),
  });

export const passwordResetMail = (t: Translate, to: string, name: string, link: string) =>
  linkMail({
    to,
    link,
    subject: t("Reset your password"),
    greeting: t("Hi {{name}},", { name }),
    body: t("Use this link to choose a new password. It works once and expires in 60 minutes."),
    action: t("Reset password"),
    footer: t("If you did not ask for a new password, you can ignore this message."),
  });

/** The answer to a creator application; a rejection carries the admin's reason and the way to apply again. */
export function creatorRequestDecidedMail(
  t: Translate,
  to: string,
  name: string,
  status: "approved" | "rejected",
  reason: string,
  link: string,
) {
  return status === "approved"
    ? linkMail({
        to,
        link,
        subject: t("You are now a creator"),
        greeting: t("Hi {{name}},", { name }),
        body: t(
          "Your creator application was approved: monetization is enabled and fans can subscribe to you for free until you set your prices.",
        ),
        action: t("Open your dashboard"),
        footer: t("Welcome aboard."),
      })
    : linkMail({
        to,
        link,
        subject: t("Your creator application was not approved"),
        greeting: t("Hi {{name}},", { name }),
        body: t("Your creator application was not approved. Reason: {{reason}}", { reason }),
        action: t("Apply again"),
        footer: t("You can fix what is missing and send a new application."),
      });
}

/** A renewal (or a free trial's first charge) the wallet could not pay: the subscription has ended. */
export const renewalFailedMail = (
  t: Translate,
  to: string,
  name: string,
  creatorName: string,
  trial: boolean,
  link: string,
) =>
  linkMail({
    to,
    link,
    subject: trial
      ? t("Your free trial of {{name}} has ended", { name: creatorName })
      : t("Your subscription to {{name}} has ended", { name: creatorName }),
    greeting: t("Hi {{name}},", { name }),
    body: trial
      ? t("Your free trial of {{name}} has ended: your wallet could not pay the first period.", { name: creatorName })
      : t("Your subscription to {{name}} has ended: your wallet could not pay the renewal.", { name: creatorName }),
    action: t("Subscribe again"),
    footer: t("Top up your wallet, then subscribe again from the creator's profile."),
  });

/** A sign-in from a browser, system and country the account had not signed in from: where to end it if not theirs. */
export const newDeviceMail = (
  t: Translate,
  to: string,
  name: string,
  signIn: { device: string; place: string; when: string },
  link: string,
) =>
  linkMail({
    to,
    link,
    subject: t("New sign-in to your account"),
    greeting: t("Hi {{name}},", { name }),
    body: t("Your account was signed in from a new device: {{device}}, {{place}}, {{when}}.", signIn),
    action: t("Review your devices"),
    footer: t("If this was you, there is nothing to do. If not, sign that device out and change your password."),
  });

/** A person's data export is ready: the link opens the page that downloads it, signed in, for DOWNLOAD_DAYS. */
export const dataExportReadyMail = (t: Translate, to: string, name: string, link: string) =>
  linkMail({
    to,
    link,
    subject: t("Your data is ready to download"),
    greeting: t("Hi {{name}},", { name }),
    body: t(
      "The copy of your data you asked for is ready. Download it within 7 days: the link works only when you are signed in.",
    ),
    action: t("Download my data"),
    footer: t("If you did not ask for a copy of your data, change your password."),
  });
