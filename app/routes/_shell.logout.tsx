import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { signOut } from "../../worker/domain/accounts/sign-in";
import { clearedSessionCookie } from "../../worker/http/cookies";
import { AppForm, SubmitButton } from "~/components/forms";
import { Spinner } from "~/components/spinner";
import type { ShellHandle } from "~/components/shell/app-shell";
import { useSession } from "~/lib/session";
import { forgetToken } from "~/lib/token";
import { clearOfflineData } from "~/lib/offline";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Sign out"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/** Without JavaScript the button posts here; the session ends for the cookie and every other holder of it. */
export async function action({ context }: ActionFunctionArgs) {
  if (context.session) await signOut(context.domain, context.session);
  return data({ ok: true }, { headers: { "Set-Cookie": clearedSessionCookie() } });
}

/**
 * /logout: ends the session through POST /api/logout (the token's session, known to the server whether it
 * came as Bearer or cookie), forgets the token and reloads at /login so no signed-in state survives in memory.
 */
export default function Logout() {
  const { t } = useTranslation();
  const { api, isAuth } = useSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Pages kept for offline use belong to this account: they go before the next person signs in.
    const leave = () => {
      forgetToken();
      void clearOfflineData().finally(() => window.location.assign("/login"));
    };
    if (!isAuth) return leave();
    api.post("/logout").then(leave, leave);
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
