import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApiError } from "~/lib/api";
import { isNetworkFailure } from "~/lib/offline-copies";
import { rememberTopUpReturn } from "~/components/wallet/top-up-return";

/**
 * Why a payment was refused, with the way forward: an empty wallet (402) links to the top-up, an unverified
 * email (403 with spec §8's sentence) to the verification page; a request that never reached the server says the
 * device is offline; anything else shows the server's message. `returnTo`: where a top-up started from the link
 * comes back to once it has succeeded (the screen the payment was tried on).
 */
export function PaymentErrorNotice({ error, returnTo }: { error: unknown; returnTo?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  const className = "space-y-1 rounded-xl bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200";
  const link = "font-semibold underline";
  if (error instanceof ApiError && error.status === 402) {
    return (
      <div role="alert" className={className}>
        <p>{t("You need to fund your wallet!")}</p>
        <Link to="/wallet" className={link} onClick={() => returnTo && rememberTopUpReturn(returnTo)}>
          {t("Top up your wallet")}
        </Link>
      </div>
    );
  }
  if (
    error instanceof ApiError &&
    error.status === 403 &&
    error.body.message === t("Your email didn't verified yet.")
  ) {
    return (
      <div role="alert" className={className}>
        <p>{error.body.message}</p>
        <Link to="/email/verify" className={link}>
          {t("Verify your email")}
        </Link>
      </div>
    );
  }
  // Money is never kept for later (the outbox holds likes, comments and messages only): offline, say so.
  const text =
    error instanceof ApiError
      ? (Object.values(error.body.errors ?? {})[0]?.[0] ?? error.body.message)
      : isNetworkFailure(error)
        ? t("You are offline. Payments need a connection; nothing was charged.")
        : t("Something went wrong");
  return (
    <p role="alert" className={className}>
      {text}
    </p>
  );
}
