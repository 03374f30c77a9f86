import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/logo";
import { Notice } from "~/components/forms";
import { requireViewer } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Home · Fanclub" }];

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { name: user.name, username: user.username, verified: user.email_verified_at !== null };
}

/** The home feed. Until the timeline lands it greets the user and says what will appear here. */
export default function Home() {
  const { t } = useTranslation();
  const { name, verified } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-2xl p-4">
      <header className="flex items-center justify-between border-b border-slate-200 pb-4 dark:border-slate-800">
        <Logo className="h-8" />
        <Link to="/logout" className="btn-secondary">
          {t("Sign out")}
        </Link>
      </header>
      <main className="space-y-4 py-6">
        <h1 className="text-2xl font-bold">{t("Welcome, {{name}}!", { name })}</h1>
        {!verified ? (
          <Notice tone="info">
            {t("Please verify your email address.")}{" "}
            <Link to="/email/verify" className="link">
              {t("Verify now")}
            </Link>
          </Notice>
        ) : null}
        <p className="text-slate-600 dark:text-slate-400">{t("Posts from creators you follow and subscribe to will appear here.")}</p>
      </main>
    </div>
  );
}
