import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function ErrorPage({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-400">{text}</p>
      <Link to="/" className="link">
        {t("Go to the home page")}
      </Link>
    </main>
  );
}
