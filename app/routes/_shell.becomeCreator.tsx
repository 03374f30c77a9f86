import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Become a creator · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "empty" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  if (user.role === "creator") throw redirect("/dashboard");
  return { hasAvatar: user.avatar_key !== null, hasCover: user.cover_key !== null, verifiedEmail: user.email_verified_at !== null };
}

/** /becomeCreator: what spec §4 asks of a creator (photo, cover, ID verification) and where the user stands. */
export default function BecomeCreatorPage() {
  const { t } = useTranslation();
  const { hasAvatar, hasCover, verifiedEmail } = useLoaderData<typeof loader>();
  const steps = [
    { label: t("Verify your email address"), done: verifiedEmail },
    { label: t("Add a profile photo"), done: hasAvatar },
    { label: t("Add a cover image"), done: hasCover },
    { label: t("Verify your identity with an ID document"), done: false },
  ];
  return (
    <>
      <PageHeader title={t("Become a creator")} />
      <div className="space-y-4 p-4">
        <p>{t("Earn from subscriptions, tips, paid messages and paid posts. Once your application is approved, monetization is enabled and you are notified.")}</p>
        <h2 className="font-semibold">{t("What you need")}</h2>
        <ol className="space-y-2">
          {steps.map((step) => (
            <li key={step.label} className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
              <span aria-hidden="true" className={`flex h-6 w-6 items-center justify-center rounded-full text-sm font-bold ${step.done ? "bg-green-600 text-white" : "bg-slate-200 text-slate-600 dark:bg-slate-800 dark:text-slate-300"}`}>
                {step.done ? "✓" : ""}
              </span>
              <span className="flex-1">{step.label}</span>
              <span className="text-sm text-slate-600 dark:text-slate-400">{step.done ? t("Done") : t("To do")}</span>
            </li>
          ))}
        </ol>
      </div>
    </>
  );
}
