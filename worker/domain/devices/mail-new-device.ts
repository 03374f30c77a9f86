import type { DomainContext } from "../context";
import { newDeviceMail } from "../mail/templates";
import { deviceLabel, type Device } from "./user-agent";
import { placeName } from "./place-name";

/** One formatter per language: a mail says when in UTC, the one zone the server knows every reader can read. */
const whenFormats = new Map<string, Intl.DateTimeFormat>();

function writtenWhen(iso: string, language: string): string {
  let format = whenFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    });
    whenFormats.set(language, format);
  }
  return format.format(new Date(iso));
}

/**
 * Tells the owner that their account was signed in from a new device, in the language they signed in with, with
 * the way to end it. After the answer: a sign-in never waits for the mail service, nor fails with it.
 */
export function mailNewDevice(
  ctx: Pick<DomainContext, "mailer" | "t" | "language" | "origin" | "country" | "region" | "defer">,
  owner: { email: string; name: string },
  device: Device,
  at: string,
): void {
  const mail = newDeviceMail(
    ctx.t,
    owner.email,
    owner.name,
    {
      device: deviceLabel(device, ctx.t),
      place: placeName(ctx.country, ctx.region, ctx.language, ctx.t),
      when: writtenWhen(at, ctx.language),
    },
    `${ctx.origin}/settings/security`,
  );
  ctx.defer(ctx.mailer.send(mail).catch((error: unknown) => console.warn("the new device mail was not sent", error)));
}
