import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FormResult } from "~/lib/forms.server";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useSignedIn } from "~/lib/use-signed-in";

/** The texts of a ceremony the browser stopped (app/lib/passkeys.ts, ceremonyFailure). */
export function useCeremonyTexts() {
  const { t } = useTranslation();
  return {
    cancelled: t("The passkey request was cancelled or timed out."),
    registered: t("This device already holds a passkey for your account."),
    unsupported: t("This browser cannot use passkeys."),
    network: t("Please try again in a moment."),
  };
}

/**
 * /login's "Use a passkey" (not "Sign in with…": the page's own "Sign in" button keeps a name no other button
 * contains): any passkey of this site, no account named (the key says whose it is). The
 * WebAuthn library loads on the tap; the session then opens as after a password.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const ceremonyTexts = useCeremonyTexts();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState("");
  const [result, setResult] = useState<FormResult>();
  useSignedIn(result);

  async function signIn() {
    setBusy(true);
    setFailure("");
    const ceremony = await import("~/lib/passkeys").catch(() => null);
    if (!ceremony) {
      setFailure(ceremonyTexts.network);
      return setBusy(false);
    }
    try {
      const { token } = await ceremony.signInWithPasskey(api);
      setResult({ ok: true, token, redirectTo });
    } catch (error) {
      setFailure(error instanceof ApiError ? error.body.message : ceremonyTexts[ceremony.ceremonyFailure(error)]);
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <button
        type="button"
        className="btn-secondary w-full"
        data-needs-js
        disabled={busy}
        onClick={() => void signIn()}
      >
        {t("Use a passkey")}
      </button>
      <p role="status" className="text-sm text-red-700 dark:text-red-400">
        {failure}
      </p>
    </div>
  );
}
