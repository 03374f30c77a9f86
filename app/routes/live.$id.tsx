import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Live"))]);

/** /live/{id}: the full-screen stream (spec §2: no layout). Streams arrive with the live work; none is on air yet. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  requireViewer(context, request);
  return data(null, { status: 404 });
}

export default function LiveStreamPage() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-950 p-6 text-center text-white">
      <h1 className="text-2xl font-bold">{t("This live stream is not on air")}</h1>
      <p className="max-w-sm text-slate-300">{t("It has ended or never started. See who is streaming right now.")}</p>
      <Link to="/live" className="btn-primary w-auto">
        {t("Live Streams")}
      </Link>
    </main>
  );
}
