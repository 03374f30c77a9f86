import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Wallet · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "empty" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  requireViewer(context, request);
  // Money arrives with the ledger; until then every wallet holds nothing.
  return { balanceCents: 0 };
}

/** /wallet: the balance in the user's locale, and the payments that will be listed under it. */
export default function WalletPage() {
  const { t, i18n } = useTranslation();
  const balance = new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD" }).format(0);
  return (
    <>
      <PageHeader title={t("Wallet")} />
      <section aria-labelledby="balance-heading" className="m-4 rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 p-6 text-white">
        <h2 id="balance-heading" className="text-sm font-medium opacity-90">
          {t("Balance")}
        </h2>
        <p className="mt-1 text-4xl font-bold">{balance}</p>
      </section>
      <EmptyState icon="wallet" title={t("No payments yet")} text={t("Top-ups, subscriptions, tips and purchases will be listed here.")} />
    </>
  );
}
