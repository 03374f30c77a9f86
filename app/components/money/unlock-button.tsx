import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PostView } from "@shared/contracts/posts";
import { formatCents } from "@shared/money";
import { useServerText } from "~/lib/server-text";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";
import { useAttemptKey } from "~/components/money/attempt-key";
import { postShape } from "~/lib/api-shapes";
import { changedPriceOf } from "~/lib/api";

/**
 * Why a purchase failed, loaded when one does (never before a click): a fan's first /home, full of locked posts,
 * carries none of it. Should its file not come (the network lost meanwhile), the button's own state still shows.
 */
const PaymentErrorNotice = lazy(() =>
  import("~/components/money/payment-error").then(
    (module) => ({ default: module.PaymentErrorNotice }),
    () => ({ default: () => null }),
  ),
);

/**
 * "Unlock for $X" on a post for sale: a confirmation step, then the purchase at the price shown (the server
 * refuses it if the price changed since), then the unlocked post fetched and handed to `onUnlocked` so the
 * screen replaces it in place.
 */
export function UnlockButton({ post, onUnlocked }: { post: PostView; onUnlocked: (post: PostView) => void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  return (
    <UnlockFlow
      priceCents={post.priceCents}
      question={(price) => t("Pay {{price}} from your wallet to unlock this post?", { price })}
      centered
      purchase={async (idempotencyKey, priceCents) => {
        await api.post(`/posts/${post.id}/purchase`, { priceCents, idempotencyKey });
        onUnlocked(await api.get(`/posts/${post.id}`, postShape));
      }}
    />
  );
}

/**
 * The steps of buying something locked from the wallet, for a post or a pay-per-view message: "Unlock for $X",
 * a confirmation, then `purchase` at the price shown with an idempotency key kept across retries of one attempt,
 * and the sidebar's indicators refreshed (the balance flag may have changed). A refusal is shown with its top-up or
 * verify link; a price changed since it was shown (nothing charged) replaces the one shown, to be confirmed again.
 */
export function UnlockFlow({
  priceCents,
  question,
  purchase,
  centered = false,
  testId,
}: {
  priceCents: number;
  question: (price: string) => string;
  purchase: (idempotencyKey: string, priceCents: number) => Promise<void>;
  centered?: boolean;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const { refresh: refreshUpdates } = useUpdateActions();
  const attempt = useAttemptKey();
  const [confirming, setConfirming] = useState(false);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The price as the server last said it: the page's, until a purchase is refused for a new one.
  const [changedTo, setChangedTo] = useState<number | null>(null);
  const shownCents = changedTo ?? priceCents;
  const price = () => formatCents(shownCents, i18n.language);
  // The button's label as the server wrote it, while the page hydrates: no currency formatter built then.
  const [labelId, label] = useServerText(`${shownCents}|${i18n.language}`, () =>
    t("Unlock for {{price}}", { price: price() }),
  );

  async function pay() {
    setPaying(true);
    setError(null);
    try {
      await purchase(attempt.key, shownCents);
      refreshUpdates();
    } catch (failure) {
      setError(failure);
      const changed = changedPriceOf(failure);
      if (changed !== null) setChangedTo(changed);
    } finally {
      setPaying(false);
    }
  }

  if (!confirming) {
    return (
      <button
        type="button"
        id={labelId}
        data-testid={testId}
        className="btn-primary w-auto text-sm"
        onClick={() => {
          attempt.renew();
          setError(null);
          setConfirming(true);
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="space-y-2">
      <p className="text-sm">{question(price())}</p>
      <div className={`flex gap-2 ${centered ? "justify-center" : ""}`}>
        <button type="button" className="btn-primary w-auto text-sm" disabled={paying} onClick={() => void pay()}>
          {paying ? t("Paying…") : t("Confirm")}
        </button>
        <button type="button" className="btn-secondary text-sm" disabled={paying} onClick={() => setConfirming(false)}>
          {t("Cancel")}
        </button>
      </div>
      {error ? (
        <Suspense fallback={null}>
          <PaymentErrorNotice error={error} />
        </Suspense>
      ) : null}
    </div>
  );
}
