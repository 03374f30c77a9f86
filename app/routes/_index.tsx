import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/logo";
import { LanguagePicker } from "~/components/language";
import { pageMeta } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [
  { title: `Fanclub · ${t("Support the creators you love")}` },
  { name: "description", content: t("Follow and subscribe to creators, see their exclusive posts, chat and tip.") },
]);

/** The landing page for visitors; signed-in people go straight to their feed. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.session) throw redirect("/home");
  return null;
}

export default function Landing() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between p-4">
        <Logo />
        <nav className="flex items-center gap-2" aria-label={t("Account")}>
          <Link to="/login" className="btn-secondary">
            {t("Sign in")}
          </Link>
          <Link to="/signup" className="btn-primary w-auto">
            {t("Sign up")}
          </Link>
        </nav>
      </header>
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col justify-center gap-6 p-6">
        <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight sm:text-5xl">
          {t("Support the creators you love.")}
        </h1>
        <p className="max-w-xl text-lg text-slate-600 dark:text-slate-400">
          {t(
            "Follow creators, subscribe for exclusive posts, chat, tip and watch them live. Creators earn from subscriptions, tips, paid messages and paid posts.",
          )}
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to="/signup" className="btn-primary w-auto">
            {t("Create your account")}
          </Link>
          <Link to="/login" className="btn-secondary">
            {t("I already have an account")}
          </Link>
        </div>
      </main>
      <footer className="mx-auto w-full max-w-5xl p-6">
        <LanguagePicker />
      </footer>
    </div>
  );
}
