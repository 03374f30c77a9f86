import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatCents } from "@shared/money";
import { joinLiveStream } from "@worker/domain/live/live-money";
import { presentLiveStream } from "@worker/domain/live/streams";
import { balanceOf, walletOf } from "@worker/domain/money/ledger";
import { audienceAdmits, findLiveAccess } from "@worker/domain/policies/live";
import { JoinLiveFormSchema } from "@shared/contracts/live-bodies";
import { parseIdText, parseOrThrow } from "@worker/domain/shared/validation";
import { AppForm, SubmitButton } from "~/components/forms";
import { Notice } from "~/components/notice";
import { Avatar } from "~/components/shell/avatar";
import { handleForm, readForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Join live stream"))]);

async function streamFor(context: LoaderFunctionArgs["context"], request: Request, idText: string | undefined) {
  const { user } = requireViewer(context, request);
  const id = parseIdText(idText ?? "");
  const access = id === null ? undefined : (await findLiveAccess(context.domain.db, user, [id])).get(id);
  // Not there for this person: /live/{id} says so (404), as it does for a stream that never existed.
  if (!access || !audienceAdmits(access.stream.audience, access.facts)) throw redirect(`/live/${id ?? 0}`);
  return { user, stream: presentLiveStream(access.stream, access.facts) };
}

/**
 * /live/{id}/join, the entry step (docs/decisions/live-streams.md): a free stream, one already entered, one that ended and
 * the creator's own go straight to /live/{id}; a paid stream shows its price and the wallet's balance, and
 * "Pay and watch" takes the entry price shown from the wallet once (the server's idempotency key is per person and
 * stream, so a second press or another tab never pays twice), then opens the stream. A price that is no longer the
 * stream's is refused: the page shows the current one (the loader runs again: shouldRevalidate) to be confirmed.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user, stream } = await streamFor(context, request, params.id);
  if (stream.status !== "live" || stream.viewer.hasEntry) throw redirect(`/live/${stream.id}`);
  return { stream, walletCents: await balanceOf(context.domain.db, walletOf(user.id)) };
}

/**
 * A refused price (409) reads the loader again, so that the entry, the button and the hidden price say the current
 * one. Single fetch does not re-run loaders after a 4xx action by itself (v7_skipActionErrorRevalidation), and the
 * root's own shouldRevalidate may pull this loader along or not: nothing here relies on it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

export async function action({ context, request, params }: ActionFunctionArgs) {
  const { user, stream } = await streamFor(context, request, params.id);
  return handleForm(context, async () => {
    const { priceCents } = parseOrThrow(JoinLiveFormSchema, await readForm(request));
    await joinLiveStream(context.domain, user, stream.id, priceCents);
    return redirect(`/live/${stream.id}`);
  });
}

export default function JoinLivePage() {
  const { t, i18n } = useTranslation();
  const { stream, walletCents } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const money = (cents: number) => formatCents(cents, i18n.language);
  const short = walletCents < stream.priceCents;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-950 p-4 text-white">
      <section
        className="w-full max-w-sm space-y-4 rounded-2xl bg-slate-900 p-6 text-center"
        aria-labelledby="join-title"
      >
        <div className="flex justify-center">
          <Avatar url={stream.creator.avatarUrl} name={stream.creator.name} size="h-20 w-20" />
        </div>
        <p className="text-sm text-slate-300">{t("{{name}} is live", { name: stream.creator.name })}</p>
        <h1 id="join-title" className="text-xl font-bold">
          {stream.title}
        </h1>
        <p className="text-lg">{t("Entry: {{amount}}", { amount: money(stream.priceCents) })}</p>
        <p className="text-sm text-slate-300">{t("Your wallet: {{amount}}", { amount: money(walletCents) })}</p>
        {result && !result.ok ? (
          <Notice tone="error">{Object.values(result.errors)[0]?.[0] ?? result.message}</Notice>
        ) : null}
        {short ? (
          <div className="space-y-2">
            <Notice tone="info">{t("You need to fund your wallet!")}</Notice>
            <Link to="/wallet" className="btn-primary">
              {t("Top up your wallet")}
            </Link>
          </div>
        ) : (
          <AppForm method="post">
            <input type="hidden" name="priceCents" value={stream.priceCents} />
            <SubmitButton pendingText={t("Paying…")}>
              {t("Pay {{amount}} and watch", { amount: money(stream.priceCents) })}
            </SubmitButton>
          </AppForm>
        )}
        <p className="text-xs text-slate-400">{t("You pay once for this stream, however often you come back.")}</p>
        <Link to="/live" className="block text-sm text-slate-200 underline underline-offset-2">
          {t("Not now")}
        </Link>
      </section>
    </main>
  );
}
