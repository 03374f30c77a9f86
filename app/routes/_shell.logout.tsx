import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { signOut } from "@worker/domain/accounts/sign-in";
import { clearedSessionCookie } from "@worker/http/cookies";
import { AppForm, SubmitButton } from "~/components/forms";
import { Spinner } from "~/components/spinner";
import type { ShellHandle } from "~/components/shell/app-shell";
import type { ApiClient } from "~/lib/api";
import { useSession } from "~/lib/session";
import { pushSettingsShape } from "~/lib/push-shapes";
import { leaveForLogin } from "~/lib/offline";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Sign out"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/** Without JavaScript the button posts here; the session ends for the cookie and every other holder of it. */
export async function action({ context }: ActionFunctionArgs) {
  if (context.session) await signOut(context.domain, context.session);
  return data({ ok: true }, { headers: { "Set-Cookie": clearedSessionCookie() } });
}

/**
 * Whoever uses this browser next must not get this account's pushes: its device goes from the account's list and
 * the browser's subscription ends.
 */
async function forgetPushDevice(api: ApiClient) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  const { devices } = await api.get("/push", pushSettingsShape, { quiet: true });
  const device = devices.find((candidate) => candidate.endpoint === subscription.endpoint);
  if (device) await api.delete(`/push/subscriptions/${device.id}`, { quiet: true });
  await subscription.unsubscribe();
}

/**
 * /logout: ends the session through POST /api/logout (the token's session, known to the server whether it
 * came as Bearer or cookie), forgets the token and reloads at /login so no signed-in state survives in memory;
 * this browser's push subscription ends first.
 */
export default function Logout() {
  const { t } = useTranslation();
  const { api, isAuth } = useSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Pages kept for offline use belong to this account: they go before the next person signs in.
    const leave = () => void leaveForLogin();
    if (!isAuth) return leave();
    forgetPushDevice(api)
      .catch((error: unknown) => console.warn("the push subscription could not be removed", error))
      .finally(() => api.post("/logout").then(leave, leave));
  }, [api, isAuth]);

  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6">
      <Spinner label={t("Signing out…")} />
      <noscript>
        <AppForm method="post">
          <SubmitButton pendingText={t("Signing out…")}>{t("Sign out")}</SubmitButton>
        </AppForm>
      </noscript>
    </div>
  );
}
