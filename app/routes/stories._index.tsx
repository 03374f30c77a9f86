import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/shell/icons";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Stories"))]);

/** /stories: the full-screen story viewer (spec §2: no layout). */
export default function StoriesPage() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen flex-col bg-slate-950 text-white">
      <div className="flex justify-end p-4">
        <Link to="/home" aria-label={t("Close stories")} className="rounded-full p-2 hover:bg-white/10">
          <Icon name="close" />
        </Link>
      </div>
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-2xl font-bold">{t("No stories right now")}</h1>
        <p className="max-w-sm text-slate-300">{t("Stories from creators you follow show here for 24 hours.")}</p>
      </div>
    </main>
  );
}
