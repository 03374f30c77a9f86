import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, NavLink, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { requestEmailChange } from "@worker/domain/accounts/change-email";
import { changePassword } from "@worker/domain/accounts/change-password";
import { ChangePasswordBodySchema, EmailChangeBodySchema } from "@shared/contracts/accounts";
import { publicMediaUrl } from "@worker/domain/accounts/users";
import { ProfileBodySchema } from "@shared/contracts/profiles";
import { updateProfile } from "@worker/domain/profiles/update-profile";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { parseOrThrow } from "@worker/domain/shared/validation";
import { idText, singleLineText } from "@shared/contracts/text";
import { listSignedInDevices } from "@worker/domain/devices/list-signed-in-devices";
import { endSession } from "@worker/domain/devices/end-session";
import { endOtherSessions } from "@worker/domain/devices/end-other-sessions";
import { EndDeviceFormSchema } from "@shared/contracts/devices";
import { cancelSubscription } from "@worker/domain/subscriptions/cancel-subscription";
import { listSubscriptions } from "@worker/domain/subscriptions/list-subscriptions";
import { subscribe } from "@worker/domain/subscriptions/subscribe";
import { SubscribeFormSchema } from "@shared/contracts/subscription-bodies";
import { passkeysRead } from "@worker/domain/passkeys/list-passkeys";
import { readOne } from "@worker/domain/shared/reads";
import { ChangeEmailForm, ChangePasswordForm } from "~/components/account-security";
import { LanguagePicker } from "~/components/language";
import { EditProfileForm } from "~/components/profile/edit-profile-form";
import { SubscriptionList } from "~/components/profile/subscription-list";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { ApiError } from "~/lib/api";
import { backTo, handleForm, postedByTheBrowser, readForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { useEmailVerifiedElsewhere } from "~/lib/email-verified";
import { pageMeta, titleTag } from "~/i18n/meta";
import { messageAnswerShape } from "~/lib/api-shapes";
import { useActiveTabInView } from "~/lib/use-active-tab-in-view";
import { PushSettings } from "~/components/push-settings";
import { Handle } from "~/components/handle";
import { SecuritySettings } from "~/components/settings/security-settings";
import { PrivacySettings } from "~/components/settings/privacy-settings";
import { AccountDeletionBodySchema } from "@shared/contracts/account-deletion";
import { cancelDeletion } from "@worker/domain/account-deletion/cancel-deletion";
import { getDeletionState } from "@worker/domain/account-deletion/deletion-state";
import { requestDeletion } from "@worker/domain/account-deletion/request-deletion";
import { findDataExportState } from "@worker/domain/data-exports/find-data-export-state";
import { requestDataExport } from "@worker/domain/data-exports/request-data-export";
import { enqueueDataExport } from "@worker/queues/data-exports";
import { getGeoBlocks } from "@worker/domain/geo-blocks/get-geo-blocks";
import { setGeoBlocks } from "@worker/domain/geo-blocks/set-geo-blocks";
import { GeoBlocksBodySchema } from "@shared/contracts/geo-blocks";
import { getWatermarkSetting } from "@worker/domain/watermarks/get-watermark-setting";
import { setWatermarkSetting } from "@worker/domain/watermarks/set-watermark-setting";
import { readTwoStepStatus } from "@worker/domain/auth/read-two-step-status";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Settings"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const PAGES = ["account", "security", "privacy", "profile", "subscriptions", "language", "notifications"] as const;
type SettingsPage = (typeof PAGES)[number];

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const session = requireViewer(context, request);
  const { user } = session;
  const page = (params.page ?? "account") as SettingsPage;
  if (!PAGES.includes(page)) throw new Response("Not found", { status: 404 });
  const profile = {
    username: user.username,
    name: user.name,
    bio: user.bio,
    location: user.location,
    website: user.website,
    avatarUrl: publicMediaUrl(user.avatar_key),
    coverUrl: publicMediaUrl(user.cover_key),
  };
  const subscriptions = page === "subscriptions" ? await listSubscriptions(context.domain.db, user.id) : [];
  const deletion = page === "privacy" ? await getDeletionState(context.domain.db, user.id) : null;
  const dataExport = page === "privacy" ? await findDataExportState(context.domain.db, user.id) : null;
  const geoBlocking = page === "privacy" && user.role === "creator" ? await getGeoBlocks(context.domain, user) : null;
  const watermark =
    page === "privacy" && user.role === "creator" ? await getWatermarkSetting(context.domain, user) : null;
  return {
    page,
    username: user.username,
    email: user.email,
    verified: user.email_verified_at !== null,
    profile,
    subscriptions,
    devices: page === "security" ? await listSignedInDevices(context.domain, session) : null,
    deletion,
    dataExport,
    geoBlocking,
    passkeys: page === "security" ? await readOne(passkeysRead(context.domain.db, user.id)) : [],
    watermark,
    // Security shows it; deleting the account (privacy) asks for a code when it is on.
    twoStep: page === "security" || page === "privacy" ? await readTwoStepStatus(context.domain.db, user.id) : null,
  };
}

const CancelSchema = z.object({ subscriptionId: idText });
/** The watermark's checkbox: "1" when ticked, absent when not. */
const WatermarkFormSchema = z.object({ on: z.literal("1").optional() });
const ResubscribeSchema = SubscribeFormSchema.extend({ username: singleLineText().min(1).max(64) });

/** Changing the password or the email, saving the profile, and cancelling or resubscribing from the subscriptions page. */
export async function action({ context, request }: ActionFunctionArgs) {
  const session = requireViewer(context, request);
  const { user } = session;
  return handleForm(context, async () => {
    const fields = await readForm(request);
    const { t } = context.domain;
    if (fields.intent === "password") {
      await changePassword(context.domain, session, parseOrThrow(ChangePasswordBodySchema, fields));
      return {
        ok: true,
        message: t("Your password was changed. Other devices have been signed out."),
      } satisfies FormResult;
    }
    if (fields.intent === "email") {
      const input = parseOrThrow(EmailChangeBodySchema, fields);
      await requestEmailChange(context.domain, user, input.email, input.password ?? "");
      return { ok: true, message: t("We have sent a confirmation link to your new address.") } satisfies FormResult;
    }
    if (fields.intent === "devices-end") {
      await endSession(context.domain, session, parseOrThrow(EndDeviceFormSchema, fields).sessionId);
      return { ok: true, message: t("The device has been signed out.") } satisfies FormResult;
    }
    if (fields.intent === "devices-end-others") {
      await endOtherSessions(context.domain, session);
      return { ok: true, message: t("Every other device has been signed out.") } satisfies FormResult;
    }
    if (fields.intent === "deletion-request" || fields.intent === "deletion-cancel") {
      if (fields.intent === "deletion-request")
        await requestDeletion(context.domain, session, parseOrThrow(AccountDeletionBodySchema, fields));
      else await cancelDeletion(context.domain.db, user);
      // The banner above every page reads the account as this request began: a page the browser posted itself
      // loads again, so that it shows the account as it is now.
      if (postedByTheBrowser(request)) throw redirect(backTo(request, "/settings/privacy"));
    } else if (fields.intent === "export-request")
      await requestDataExport(context.domain, enqueueDataExport(context.cloudflare.env), user.id);
    else if (fields.intent === "geo-blocking-save") {
      const places = (fields.places ?? "").split(",").filter(Boolean);
      await setGeoBlocks(context.domain, user, parseOrThrow(GeoBlocksBodySchema, { places }));
    } else if (fields.intent === "watermark-set") {
      const { on } = parseOrThrow(WatermarkFormSchema, fields);
      await setWatermarkSetting(context.domain, user, { on: on === "1" });
    } else if (fields.intent === "profile")
      await updateProfile(context.domain.db, user.id, parseOrThrow(ProfileBodySchema, fields));
    else if (fields.intent === "cancel")
      await cancelSubscription(context.domain.db, user.id, parseOrThrow(CancelSchema, fields).subscriptionId);
    else if (fields.intent === "resubscribe") {
      const { username, ...plan } = parseOrThrow(ResubscribeSchema, fields);
      await subscribe(context.domain, user, username.toLowerCase(), plan);
    } else throw new AppError("validation", INVALID_VALUE);
    return { ok: true } satisfies FormResult;
  });
}

function TestNotification() {
  const { t } = useTranslation();
  const { api } = useSession();
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function send() {
    setBusy(true);
    try {
      const body = await api.post("/notifications/test", {}, messageAnswerShape);
      setStatus({ tone: "ok", text: body.message });
    } catch (error) {
      if (error instanceof ApiError) setStatus({ tone: "error", text: error.body.message });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-2">
      <p className="text-slate-600 dark:text-slate-400">
        {t("Check that notifications reach this device: the bell in the menu shows the new one at once.")}
      </p>
      <button type="button" className="btn-secondary" disabled={busy} onClick={() => void send()}>
        {t("Send me a test notification")}
      </button>
      <p
        role="status"
        className={status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-green-700 dark:text-green-400"}
      >
        {status?.text}
      </p>
    </div>
  );
}

/** /settings/{page?}: account, security (two-step, passkeys, devices), privacy and data, profile, subscriptions, language, notifications. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { page, username, email, verified, profile, subscriptions } = useLoaderData<typeof loader>();
  useEmailVerifiedElsewhere(verified);
  const tabs = useActiveTabInView<HTMLUListElement>();
  const titles: Record<SettingsPage, string> = {
    account: t("Account"),
    security: t("Security"),
    privacy: t("Privacy and data"),
    profile: t("Profile"),
    subscriptions: t("Subscriptions"),
    language: t("Language"),
    notifications: t("Notifications"),
  };
  return (
    <>
      <PageHeader title={t("Settings")} />
      <div className="narrow:flex">
        <nav
          aria-label={t("Settings")}
          className="border-b border-slate-200 p-2 dark:border-slate-800 narrow:w-56 narrow:border-b-0 narrow:border-e"
        >
          <ul ref={tabs} className="flex gap-1 overflow-x-auto narrow:flex-col">
            {PAGES.map((name) => (
              <li key={name} className="shrink-0">
                <NavLink
                  to={`/settings/${name}`}
                  className={({ isActive }) =>
                    `block whitespace-nowrap rounded-lg px-3 py-2 narrow:whitespace-normal ${isActive || (name === "account" && page === "account") ? "bg-slate-100 font-semibold dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`
                  }
                >
                  {titles[name]}
                </NavLink>
              </li>
            ))}
            <li className="shrink-0">
              <NavLink
                to="/settings/blocked"
                className="block whitespace-nowrap rounded-lg px-3 py-2 hover:bg-slate-100 narrow:whitespace-normal dark:hover:bg-slate-800"
              >
                {t("Blocked users")}
              </NavLink>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="settings-section" className="flex-1 space-y-4 p-4">
          <h2 id="settings-section" className="text-lg font-semibold">
            {titles[page]}
          </h2>
          {page === "account" ? (
            <dl className="space-y-3">
              <div>
                <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Username")}</dt>
                <dd className="font-medium">
                  <Handle username={username} />
                </dd>
              </div>
              <div>
                <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Email address")}</dt>
                <dd className="font-medium">
                  {email}{" "}
                  {verified ? null : (
                    <Link to="/email/verify" className="link text-sm">
                      {t("Verify now")}
                    </Link>
                  )}
                </dd>
              </div>
            </dl>
          ) : null}
          {page === "account" ? (
            <>
              <ChangePasswordForm />
              <ChangeEmailForm />
            </>
          ) : null}
          {page === "security" ? <SecuritySettings /> : null}
          {page === "privacy" ? <PrivacySettings /> : null}
          {page === "profile" ? <EditProfileForm profile={profile} /> : null}
          {page === "subscriptions" ? <SubscriptionList subscriptions={subscriptions} /> : null}
          {page === "language" ? <LanguagePicker /> : null}
          {page === "notifications" ? (
            <>
              <TestNotification />
              <PushSettings />
            </>
          ) : null}
        </section>
      </div>
    </>
  );
}
