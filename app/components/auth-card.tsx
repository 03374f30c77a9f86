import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/logo";

/** The frame of the sign-in, sign-up and email-link pages (no app layout, spec §2). */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-10 dark:bg-slate-950 sm:items-center">
      <div className="w-full max-w-md">
        <Link to="/" className="mb-6 flex items-center justify-center gap-2" aria-label={t("Fanclub home")}>
          <Logo />
        </Link>
        <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800 sm:p-8">
          <h1 className="text-2xl font-bold">{title}</h1>
          {subtitle ? <div className="mt-1 text-slate-600 dark:text-slate-400">{subtitle}</div> : null}
          <div className="mt-6">{children}</div>
        </section>
        {footer ? <div className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">{footer}</div> : null}
      </div>
    </main>
  );
}
